import { atom } from 'jotai';

import type { AuthEvent, Profile, Session, User } from '@/lib/auth/types';
import { ApiError, request } from '@/lib/http';
import { appStore } from '@/lib/store';

export const SESSION_STORAGE_KEY = 'taskhub.session';
/** Spec §9 "session re-check margin": refresh this long before the access token expires. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

export const sessionAtom = atom<Session | null>(null);
export const profileAtom = atom<Profile | null>(null);
/** True until the initial session has been resolved. */
export const authLoadingAtom = atom(true);
export const userAtom = atom<User | null>((get) => get(sessionAtom)?.user ?? null);

type Listener = (event: AuthEvent, session: Session | null) => void;
const listeners = new Set<Listener>();
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshInFlight: Promise<Session | null> | null = null;
let profileRequest = 0;

export function sessionExpiryMs(session: Session): number {
  const raw = session.expires_at;
  if (typeof raw === 'number') return raw < 1e12 ? raw * 1000 : raw;
  const parsed = Date.parse(raw);
  if (!Number.isNaN(parsed)) return parsed;
  const numeric = Number(raw);
  if (!Number.isNaN(numeric)) return numeric < 1e12 ? numeric * 1000 : numeric;
  return Date.now() + (session.expires_in ?? 0) * 1000;
}

export function isExpiring(session: Session, marginMs = REFRESH_MARGIN_MS, now = Date.now()) {
  return sessionExpiryMs(session) - now <= marginMs;
}

export function readStoredSession(): Session | null {
  try {
    const raw = localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Session;
    return parsed?.access_token && parsed?.refresh_token && parsed?.user?.id ? parsed : null;
  } catch {
    return null;
  }
}

function persist(session: Session | null) {
  try {
    if (session) localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
    else localStorage.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode); the session then lives for this tab only.
  }
}

export function getSession(): Session | null {
  return appStore.get(sessionAtom);
}

export function onAuthStateChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function scheduleRefresh(session: Session | null) {
  clearTimeout(refreshTimer);
  if (!session) return;
  const delay = Math.max(sessionExpiryMs(session) - Date.now() - REFRESH_MARGIN_MS, 5_000);
  refreshTimer = setTimeout(() => void refreshSession(), Math.min(delay, 2_147_000_000));
}

/** Sets the session, persists it, schedules its refresh, notifies listeners and reloads the profile. */
export function setSession(session: Session | null, event: AuthEvent, options: { persist?: boolean } = {}) {
  appStore.set(sessionAtom, session);
  if (session?.profile) appStore.set(profileAtom, session.profile);
  if (options.persist !== false) persist(session);
  scheduleRefresh(session);
  for (const listener of listeners) listener(event, session);
  void reloadProfile();
}

/** Loads the signed-in user's profile, or clears it when nobody is signed in. */
export async function reloadProfile(): Promise<Profile | null> {
  const ticket = ++profileRequest;
  const session = getSession();
  if (!session) {
    appStore.set(profileAtom, null);
    return null;
  }
  try {
    const me = await authorizedRequest<{ user: User; profile: Profile }>('/api/me');
    if (ticket !== profileRequest) return appStore.get(profileAtom);
    appStore.set(profileAtom, me.profile);
    const current = getSession();
    if (current && me.user && current.user.id === me.user.id) {
      const merged = { ...current, user: { ...current.user, ...me.user } };
      appStore.set(sessionAtom, merged);
      // Another tab may have stored a newer session (a rotated refresh token) meanwhile:
      // writing ours over it would hand every tab a spent token.
      if (readStoredSession()?.refresh_token === current.refresh_token) persist(merged);
    }
    return me.profile;
  } catch {
    return appStore.get(profileAtom);
  }
}

async function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks?.request) return locks.request('taskhub.refresh', task) as Promise<T>;
  return task();
}

/**
 * Exchanges the refresh token for a new session. Concurrent callers share one request, and tabs
 * take turns (refresh tokens rotate, so two tabs must never spend the same one).
 */
export function refreshSession(): Promise<Session | null> {
  if (refreshInFlight) return refreshInFlight;
  const started = getSession();
  if (!started) return Promise.resolve(null);

  refreshInFlight = withRefreshLock(async () => {
    const stored = readStoredSession();
    if (stored && stored.user.id === started.user.id && stored.refresh_token !== started.refresh_token && !isExpiring(stored)) {
      setSession(stored, 'TOKEN_REFRESHED', { persist: false });
      return stored;
    }
    const current = getSession();
    if (!current) return null;
    try {
      const next = await request<Session>('/api/auth/refresh', {
        method: 'POST',
        body: { refresh_token: current.refresh_token },
      });
      setSession(next, 'TOKEN_REFRESHED');
      return next;
    } catch (error) {
      if (error instanceof ApiError && error.status > 0 && error.status < 500) {
        setSession(null, 'SIGNED_OUT');
        return null;
      }
      // Network or server trouble: keep the session and try again shortly.
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => void refreshSession(), 15_000);
      return getSession();
    }
  }).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

/** A request carrying the access token: refreshed first if about to expire, and once more on a 401. */
export async function authorizedRequest<T>(
  path: string,
  options: Parameters<typeof request>[1] = {},
): Promise<T> {
  let session = getSession();
  if (session && isExpiring(session, 10_000)) session = await refreshSession();
  const send = (s: Session | null) =>
    request<T>(path, {
      ...options,
      headers: { ...options.headers, ...(s ? { Authorization: `Bearer ${s.access_token}` } : {}) },
    });
  try {
    return await send(session);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401 || !session) throw error;
    const refreshed = await refreshSession();
    if (!refreshed) throw error;
    return send(refreshed);
  }
}

/** Resolves the stored session on start-up; the loading flag stays true until this finishes. */
export async function initAuth(): Promise<void> {
  appStore.set(authLoadingAtom, true);
  const stored = readStoredSession();
  if (stored) {
    appStore.set(sessionAtom, stored);
    if (isExpiring(stored)) await refreshSession();
    else scheduleRefresh(stored);
  }
  const session = getSession();
  for (const listener of listeners) listener('INITIAL_SESSION', session);
  if (session) await reloadProfile();
  appStore.set(authLoadingAtom, false);
}

let watching = false;
/** Keeps tabs in step and refreshes a token that went stale while the tab slept. */
export function watchSessionAcrossTabs() {
  if (watching || typeof window === 'undefined') return;
  watching = true;
  window.addEventListener('storage', (event) => {
    if (event.key !== SESSION_STORAGE_KEY) return;
    const next = readStoredSession();
    const current = getSession();
    if (!next && current) setSession(null, 'SIGNED_OUT', { persist: false });
    else if (next && next.user.id !== current?.user.id) setSession(next, 'SIGNED_IN', { persist: false });
    else if (next && current && next.access_token !== current.access_token) {
      appStore.set(sessionAtom, next);
      scheduleRefresh(next);
    }
  });
  document.addEventListener('visibilitychange', () => {
    const session = getSession();
    if (document.visibilityState === 'visible' && session && isExpiring(session)) void refreshSession();
  });
}

/** Test hook: forget timers and in-flight work. */
export function resetAuthForTests() {
  clearTimeout(refreshTimer);
  refreshInFlight = null;
  listeners.clear();
  appStore.set(sessionAtom, null);
  appStore.set(profileAtom, null);
  appStore.set(authLoadingAtom, true);
}
