import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { signOut } from '@/lib/auth/actions';
import {
  authLoadingAtom,
  authorizedRequest,
  initAuth,
  onAuthStateChange,
  profileAtom,
  REFRESH_MARGIN_MS,
  resetAuthForTests,
  SESSION_STORAGE_KEY,
  sessionAtom,
  setSession,
} from '@/lib/auth/session';
import type { Session } from '@/lib/auth/types';
import { appStore } from '@/lib/store';
import { mockFetch } from '@/testing/render';

const user = { id: 'u1', email: 'ada@example.com' };
const profile = { id: 'u1', first_name: 'Ada', last_name: 'Lovelace' };

function session(token: string, expiresInS = 900, refresh = `r-${token}`): Session {
  return {
    access_token: token,
    refresh_token: refresh,
    token_type: 'bearer',
    expires_in: expiresInS,
    expires_at: Math.floor(Date.now() / 1000) + expiresInS,
    user,
  };
}

const authHeader = (init: RequestInit) => (init.headers as Record<string, string>).Authorization;

beforeEach(() => resetAuthForTests());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** This browser subscribed to push (through the app's service worker) at `endpoint`. */
function subscribedToPush(endpoint: string) {
  const subscription = { endpoint, unsubscribe: vi.fn(async () => true) };
  const registration = { pushManager: { getSubscription: async () => subscription } };
  vi.stubGlobal('navigator', Object.assign(Object.create(navigator), { serviceWorker: { getRegistration: async () => registration } }));
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', { permission: 'granted' });
  return subscription;
}

describe('auth store', () => {
  it('persists the session in localStorage and reloads the profile on sign-in', async () => {
    const api = mockFetch({ 'GET /api/me': { body: { user, profile } } });
    vi.stubGlobal('fetch', api.fn);
    setSession(session('a1'), 'SIGNED_IN');
    expect(JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!).access_token).toBe('a1');
    await vi.waitFor(() => expect(appStore.get(profileAtom)).toEqual(profile));
    expect(authHeader(api.calls[0].init)).toBe('Bearer a1');
  });

  it('does not write over a session another tab stored while the profile was loading', async () => {
    let answer: (response: Response) => void = () => {};
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
    setSession(session('a1'), 'SIGNED_IN');
    // Another tab rotates the refresh token meanwhile; ours is now spent.
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session('a2')));
    answer(new Response(JSON.stringify({ user, profile }), { status: 200, headers: { 'Content-Type': 'application/json' } }));
    await vi.waitFor(() => expect(appStore.get(profileAtom)).toEqual(profile));
    expect(JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY)!).refresh_token).toBe('r-a2');
  });

  it('clears the session and the profile on sign-out', async () => {
    const api = mockFetch({ 'GET /api/me': { body: { user, profile } }, 'POST /api/auth/logout': { status: 204 } });
    vi.stubGlobal('fetch', api.fn);
    setSession(session('a1'), 'SIGNED_IN');
    await vi.waitFor(() => expect(appStore.get(profileAtom)).not.toBeNull());
    const events: string[] = [];
    onAuthStateChange((event) => events.push(event));
    await signOut();
    expect(appStore.get(sessionAtom)).toBeNull();
    expect(appStore.get(profileAtom)).toBeNull();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(events).toEqual(['SIGNED_OUT']);
    expect(JSON.parse(String(api.calls.find((c) => c.key === 'POST /api/auth/logout')!.init.body))).toEqual({ refresh_token: 'r-a1' });
  });

  it("stops this browser's push notifications on sign-out, so the next person here does not get them", async () => {
    const api = mockFetch({
      'GET /api/me': { body: { user, profile } },
      'DELETE /api/me/push-subscriptions': { status: 204 },
      'POST /api/auth/logout': { status: 204 },
    });
    vi.stubGlobal('fetch', api.fn);
    const subscription = subscribedToPush('https://push.example/device-1');
    setSession(session('a1'), 'SIGNED_IN');

    await signOut();

    const remove = api.calls.find((c) => c.key === 'DELETE /api/me/push-subscriptions');
    expect(JSON.parse(String(remove?.init.body))).toEqual({ endpoint: 'https://push.example/device-1' });
    expect(new Headers(remove!.init.headers).get('Authorization')).toBe('Bearer a1');
    expect(subscription.unsubscribe).toHaveBeenCalledOnce();
    // Forgotten with the session's token, before the session ends.
    const keys = api.calls.map((c) => c.key);
    expect(keys.indexOf('DELETE /api/me/push-subscriptions')).toBeLessThan(keys.indexOf('POST /api/auth/logout'));
    expect(appStore.get(sessionAtom)).toBeNull();
  });

  it('signs out even when forgetting the push subscription fails', async () => {
    const api = mockFetch({
      'GET /api/me': { body: { user, profile } },
      'DELETE /api/me/push-subscriptions': { status: 503, body: { error: { code: 'unavailable', message: 'Try again' } } },
      'POST /api/auth/logout': { status: 204 },
    });
    vi.stubGlobal('fetch', api.fn);
    const subscription = subscribedToPush('https://push.example/device-2');
    setSession(session('a1'), 'SIGNED_IN');

    await signOut();

    // The browser unsubscribes all the same: the push service then refuses the server's next push,
    // and the server drops the subscription.
    expect(subscription.unsubscribe).toHaveBeenCalledOnce();
    expect(api.calls.map((c) => c.key)).toContain('POST /api/auth/logout');
    expect(appStore.get(sessionAtom)).toBeNull();
  });

  it('refreshes once on a 401 and retries the request with the new token', async () => {
    const api = mockFetch({
      'GET /api/me': { body: { user, profile } },
      'GET /api/things': (init) =>
        authHeader(init) === 'Bearer a2' ? { body: { ok: true } } : { status: 401, body: { error: { code: 'unauthorized', message: 'expired' } } },
      'POST /api/auth/refresh': { body: session('a2') },
    });
    vi.stubGlobal('fetch', api.fn);
    setSession(session('a1'), 'SIGNED_IN');
    await expect(authorizedRequest('/api/things')).resolves.toEqual({ ok: true });
    expect(api.calls.filter((c) => c.key === 'POST /api/auth/refresh')).toHaveLength(1);
    expect(appStore.get(sessionAtom)?.access_token).toBe('a2');
  });

  it('gives up after one refresh and signs out when the refresh token is rejected', async () => {
    const api = mockFetch({
      'GET /api/me': { status: 401, body: { error: { code: 'unauthorized', message: 'no' } } },
      'GET /api/things': { status: 401, body: { error: { code: 'unauthorized', message: 'expired' } } },
      'POST /api/auth/refresh': { status: 401, body: { error: { code: 'unauthorized', message: 'revoked' } } },
    });
    vi.stubGlobal('fetch', api.fn);
    appStore.set(sessionAtom, session('a1'));
    await expect(authorizedRequest('/api/things')).rejects.toMatchObject({ status: 401 });
    expect(api.calls.filter((c) => c.key === 'POST /api/auth/refresh')).toHaveLength(1);
    expect(appStore.get(sessionAtom)).toBeNull();
  });

  it('re-checks the session 5 minutes before it expires, as the spec says', () => {
    expect(REFRESH_MARGIN_MS).toBe(5 * 60_000);
  });

  it('refreshes the access token 5 minutes before it expires', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const api = mockFetch({ 'GET /api/me': { body: { user, profile } }, 'POST /api/auth/refresh': { body: session('a2') } });
    vi.stubGlobal('fetch', api.fn);
    setSession(session('a1', 900), 'SIGNED_IN');
    await vi.advanceTimersByTimeAsync(600_000 - 1_000);
    expect(api.calls.some((c) => c.key === 'POST /api/auth/refresh')).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(api.calls.filter((c) => c.key === 'POST /api/auth/refresh')).toHaveLength(1);
    expect(appStore.get(sessionAtom)?.access_token).toBe('a2');
  });

  it('shares one refresh between concurrent callers', async () => {
    let resolve!: () => void;
    const gate = new Promise<void>((r) => (resolve = r));
    const api = mockFetch({ 'GET /api/me': { body: { user, profile } } });
    let refreshes = 0;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/api/auth/refresh')) {
        refreshes += 1;
        await gate;
        return new Response(JSON.stringify(session('a2')), { status: 200 });
      }
      return api.fn(input, init);
    });
    appStore.set(sessionAtom, session('a1', 5));
    const both = Promise.all([authorizedRequest('/api/me'), authorizedRequest('/api/me')]);
    resolve();
    await both;
    expect(refreshes).toBe(1);
  });

  it('resolves the initial session from storage, refreshing it if it is about to expire', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session('old', 10)));
    const api = mockFetch({ 'POST /api/auth/refresh': { body: session('new') }, 'GET /api/me': { body: { user, profile } } });
    vi.stubGlobal('fetch', api.fn);
    const events: string[] = [];
    onAuthStateChange((event) => events.push(event));
    expect(appStore.get(authLoadingAtom)).toBe(true);
    await initAuth();
    expect(appStore.get(authLoadingAtom)).toBe(false);
    expect(appStore.get(sessionAtom)?.access_token).toBe('new');
    expect(appStore.get(profileAtom)).toEqual(profile);
    expect(events).toContain('INITIAL_SESSION');
  });

  it('finishes loading with no session when nothing is stored', async () => {
    vi.stubGlobal('fetch', mockFetch({}).fn);
    await initAuth();
    expect(appStore.get(authLoadingAtom)).toBe(false);
    expect(appStore.get(sessionAtom)).toBeNull();
  });
});
