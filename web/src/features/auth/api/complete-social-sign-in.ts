import { useMutation } from '@tanstack/react-query';

import type { AccountType } from '@/features/auth/api/signup';
import { setSession } from '@/lib/auth/session';
import type { Session, Skill } from '@/lib/auth/types';
import { request } from '@/lib/http';

export type CompleteSignupInput = { token: string; account_type: AccountType; skills: Skill[] };

/** A new person who came back from a provider chooses customer or tasker; the answer is a session. */
export async function completeSocialSignup(input: CompleteSignupInput): Promise<Session> {
  const session = await request<Session>('/api/auth/oidc/complete-signup', { method: 'POST', body: input });
  setSession(session, 'SIGNED_IN');
  return session;
}

export function useCompleteSocialSignup() {
  return useMutation({ mutationFn: completeSocialSignup });
}

const exchanges = new Map<string, Promise<Session>>();

/**
 * The provider's callback hands over the new session's refresh token (in the URL fragment, which
 * never reaches a server); exchanging it at once rotates it, so the one left in history is spent.
 * One exchange per token even if the page renders twice: spending a refresh token twice would end
 * the session.
 */
export function finishSocialSignIn(refreshToken: string): Promise<Session> {
  let exchange = exchanges.get(refreshToken);
  if (!exchange) {
    exchange = request<Session>('/api/auth/refresh', { method: 'POST', body: { refresh_token: refreshToken } }).then(
      (session) => {
        setSession(session, 'SIGNED_IN');
        return session;
      },
    );
    exchanges.set(refreshToken, exchange);
  }
  return exchange;
}
