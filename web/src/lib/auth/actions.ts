import type { Session } from '@/lib/auth/types';
import { authorizedRequest, getSession, setSession } from '@/lib/auth/session';
import { ApiError, request } from '@/lib/http';
import { currentPushSubscription } from '@/lib/push-subscription';

export async function signInWithPassword(email: string, password: string): Promise<Session> {
  const session = await request<Session>('/api/auth/login', {
    method: 'POST',
    body: { email, password },
  });
  setSession(session, 'SIGNED_IN');
  return session;
}

/**
 * Ends the session on the server, then locally. A token the server already rejects counts as signed out.
 * This browser stops receiving the account's push notifications first: on a shared device, the next
 * person to use it must not see them.
 */
export async function signOut(): Promise<void> {
  const session = getSession();
  if (session) {
    await forgetPushSubscription();
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

/**
 * The server forgets this browser's push subscription (with the session's token, so before it ends),
 * then the browser drops it. Best effort: sign-out goes on if either fails. Once the browser has
 * unsubscribed, the push service refuses the server's next push to it and the server drops it then.
 */
async function forgetPushSubscription() {
  const subscription = await currentPushSubscription().catch(() => null);
  if (!subscription) return;
  await authorizedRequest<void>('/api/me/push-subscriptions', {
    method: 'DELETE',
    body: { endpoint: subscription.endpoint },
  }).catch(() => undefined);
  await subscription.unsubscribe().catch(() => false);
}
