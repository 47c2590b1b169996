import { describe, expect, it } from 'vitest';

import { fromLocation, redirectTarget } from '@/lib/auth/redirect';

describe('redirect after signing in', () => {
  it('returns to the requested location with its query and hash', () => {
    expect(redirectTarget(fromLocation({ pathname: '/my-tasks', search: '?tab=offers', hash: '#top' }))).toBe('/my-tasks?tab=offers#top');
  });
  it('goes home without a remembered location or from an account page', () => {
    expect(redirectTarget(null)).toBe('/');
    expect(redirectTarget({ from: { pathname: '/signup' } })).toBe('/');
    expect(redirectTarget({ from: { pathname: '/login' } })).toBe('/');
  });
});
