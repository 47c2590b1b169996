import type { Location } from 'react-router';

export type FromState = { from?: { pathname: string; search?: string; hash?: string } };

/** Pages it makes no sense to return to after signing in. */
const AUTH_PAGES = ['/login', '/signup', '/forgot-password', '/reset-password', '/verify-email', '/auth/callback'];

/** Where to go after signing in: the location a protected route sent us from, else home. */
export function redirectTarget(state: unknown, fallback = '/'): string {
  const from = (state as FromState | null)?.from;
  if (!from?.pathname || AUTH_PAGES.includes(from.pathname)) return fallback;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

export function fromLocation(location: Pick<Location, 'pathname' | 'search' | 'hash'>): FromState {
  return { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
}
