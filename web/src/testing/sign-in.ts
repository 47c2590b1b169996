import { authLoadingAtom, resetAuthForTests, sessionAtom } from '@/lib/auth/session';
import type { User } from '@/lib/auth/types';
import { appStore } from '@/lib/store';

/** A settled, signed-in session for a test: `user` by id (email `{id}@example.com`) or in full. */
export function signInForTest(user: string | User) {
  resetAuthForTests();
  appStore.set(authLoadingAtom, false);
  appStore.set(sessionAtom, {
    access_token: 'a',
    refresh_token: 'r',
    token_type: 'bearer',
    expires_in: 900,
    expires_at: Math.floor(Date.now() / 1000) + 900,
    user: typeof user === 'string' ? { id: user, email: `${user}@example.com` } : user,
  });
}
