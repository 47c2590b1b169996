import type { Session } from '@/lib/auth/types';
import { authorizedRequest, getSession, setSession } from '@/lib/auth/session';
import { ApiError, request } from '@/lib/http';

export async function signInWithPassword(email: string, password: string): Promise<Session> {
  const session = await request<Session>('/api/auth/login', {
    method: 'POST',
    body: { email, password },
  });
  setSession(session, 'SIGNED_IN');
  return session;
}

/** Ends the session on the server, then locally. A token the server already rejects counts as signed out. */
export async function signOut(): Promise<void> {
  const session = getSession();
  if (session) {
    try {
      await authorizedRequest<void>('/api/auth/logout', {
        method: 'POST',
        body: { refresh_token: session.refresh_token },
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
    }
  }
  setSession(null, 'SIGNED_OUT');
}
