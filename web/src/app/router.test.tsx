import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { loadCurrentPage, routes } from '@/app/router';
import { queryClient } from '@/lib/query-client';
import { mockFetch, renderRoutes } from '@/testing/render';

afterEach(() => vi.unstubAllGlobals());

describe('routes', () => {
  it('show a page whose code loaded before the first render at once, without a loading spinner', async () => {
    window.history.replaceState(null, '', '/about');
    await loadCurrentPage();
    renderRoutes(routes, ['/about']);
    expect(screen.getByRole('heading', { level: 1, name: 'About Us' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it("start loading a task's data with its page's code, before the first render", async () => {
    const task = { id: 't1', title: 'Paint the fence' };
    const { fn, calls } = mockFetch({ 'GET /api/tasks/t1': { body: task } });
    vi.stubGlobal('fetch', fn);
    window.history.replaceState(null, '', '/task/t1');
    await loadCurrentPage();
    expect(calls.map((call) => call.key)).toContain('GET /api/tasks/t1');
    await waitFor(() => expect(queryClient.getQueryData(['tasks', 'detail', 't1'])).toEqual(task));
  });

  it("start loading browse's first page, for the URL's filters, with its page's code", async () => {
    const page = { items: [{ id: 't2', title: 'Fix a leaking tap' }], next_cursor: null, has_more: false };
    const urls: string[] = [];
    const { fn } = mockFetch({ 'GET /api/tasks': { body: page } });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      urls.push(String(input));
      return fn(input, init);
    });
    window.history.replaceState(null, '', '/tasks?q=tap&sort=newest');
    await loadCurrentPage();
    expect(urls).toContain('/api/tasks?q=tap&sort=newest&limit=12');
    await waitFor(() =>
      expect(queryClient.getQueryData(['tasks', 'list', { q: 'tap', sort: 'newest' }])).toEqual({ pages: [page], pageParams: [null] }),
    );
  });
});
