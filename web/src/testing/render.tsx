import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { domAnimation, LazyMotion } from 'framer-motion';
import { Provider } from 'jotai';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';

import { Toaster } from '@/components/ui/toaster';
import { appStore } from '@/lib/store';

/** Renders routes in a memory router with the app's store, a fresh query client and the toaster. */
export function renderRoutes(routes: RouteObject[], initialEntries: Array<string | { pathname: string; state?: unknown }> = ['/']) {
  const router = createMemoryRouter(routes, { initialEntries });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const utils = render(
    <Provider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <LazyMotion features={domAnimation}>
          <RouterProvider router={router} />
          <Toaster />
        </LazyMotion>
      </QueryClientProvider>
    </Provider>,
  );
  return { ...utils, router };
}

export function renderWithRouter(element: ReactElement, path = '/') {
  return renderRoutes([{ path: '*', element }], [path]);
}

type Reply = { status?: number; body?: unknown };
/** A fetch stub answering by "METHOD path" with queued or fixed replies, recording every call. */
export function mockFetch(handlers: Record<string, Reply | Reply[] | ((init: RequestInit) => Reply)>) {
  const calls: Array<{ key: string; init: RequestInit }> = [];
  const fn = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${(init.method ?? 'GET').toUpperCase()} ${url.pathname}`;
    calls.push({ key, init });
    const handler = handlers[key];
    let reply: Reply;
    if (!handler) reply = { status: 404, body: { error: { code: 'not_found', message: 'Not Found' } } };
    else if (typeof handler === 'function') reply = handler(init);
    else if (Array.isArray(handler)) reply = handler.length > 1 ? handler.shift()! : handler[0];
    else reply = handler;
    const status = reply.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(reply.body ?? {}), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { fn, calls };
}
