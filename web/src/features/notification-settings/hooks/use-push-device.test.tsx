import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { usePushDevice } from '@/features/notification-settings/hooks/use-push-device';
import { mockFetch } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

afterEach(() => vi.unstubAllGlobals());

/** A browser whose push service hands out `endpoints` in turn; it already holds the first. */
function browserWithPush(endpoints: string[]) {
  const subscriptionFor = (endpoint: string) => ({
    endpoint,
    unsubscribe: vi.fn(async () => true),
    toJSON: () => ({ endpoint, keys: { p256dh: 'key', auth: 'auth' } }),
  });
  let current: ReturnType<typeof subscriptionFor> | null = subscriptionFor(endpoints.shift()!);
  const held = current;
  const pushManager = {
    getSubscription: async () => current,
    subscribe: vi.fn(async () => (current = subscriptionFor(endpoints.shift()!))),
  };
  const registration = { pushManager };
  vi.stubGlobal('navigator', {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
    serviceWorker: { register: async () => registration, ready: Promise.resolve(registration), getRegistration: async () => registration },
  });
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', { permission: 'granted', requestPermission: async () => 'granted' });
  return { held, pushManager };
}

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
}

describe('usePushDevice', () => {
  it("starts a new subscription when this browser's is another account's device (409)", async () => {
    signInForTest('u1');
    const { held, pushManager } = browserWithPush(['https://fcm.googleapis.com/fcm/send/previous-user', 'https://fcm.googleapis.com/fcm/send/fresh']);
    const api = mockFetch({
      'GET /api/push/public-key': { body: { key: 'AAAA' } },
      'POST /api/me/push-subscriptions': [
        { status: 409, body: { error: { code: 'conflict', message: "This device receives another account's notifications" } } },
        { status: 201, body: {} },
      ],
    });
    vi.stubGlobal('fetch', api.fn);
    const { result } = renderHook(() => usePushDevice(), { wrapper });
    await act(() => result.current.enable());

    expect(held.unsubscribe).toHaveBeenCalled();
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
    const posted = api.calls.filter((call) => call.key === 'POST /api/me/push-subscriptions').map((call) => JSON.parse(String(call.init.body)).endpoint);
    expect(posted).toEqual(['https://fcm.googleapis.com/fcm/send/previous-user', 'https://fcm.googleapis.com/fcm/send/fresh']);
    expect(result.current.state).toBe('on');
  });

  it('passes other refusals on', async () => {
    signInForTest('u1');
    const { held } = browserWithPush(['https://attacker.example.net/x']);
    const api = mockFetch({
      'GET /api/push/public-key': { body: { key: 'AAAA' } },
      'POST /api/me/push-subscriptions': { status: 422, body: { error: { code: 'validation_failed', message: 'Invalid', fields: {} } } },
    });
    vi.stubGlobal('fetch', api.fn);
    const { result } = renderHook(() => usePushDevice(), { wrapper });
    await expect(act(() => result.current.enable())).rejects.toThrow('Invalid');
    expect(held.unsubscribe).not.toHaveBeenCalled();
  });
});
