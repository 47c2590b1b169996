import { useMutation } from '@tanstack/react-query';

import type { AccountType } from '@/features/auth/api/signup';
import { setSession } from '@/lib/auth/session';
import type { Session, Skill } from '@/lib/auth/types';
import { request } from '@/lib/http';

export type CompleteSignupInput = { token: string; account_type: AccountType; skills: Skill[] };

/** No account yet: the provider did not verify the address, so a link went to it. */
export type ConfirmationSent = { confirmation_sent: true; email: string };

/**
 * Where the sign-up token waits for the mailed link: the link works only in the browser that
 * signed up, which sends this token with it (so a link opened by anyone else makes no account).
 */
const PENDING_SIGNUP_KEY = 'taskhub.pending-social-signup';

/**
 * A new person who came back from a provider chooses customer or tasker; the answer is a session,
 * or (when the provider did not verify the address) word that a confirmation link was mailed.
 */
export async function completeSocialSignup(input: CompleteSignupInput): Promise<Session | ConfirmationSent> {
  const answer = await request<Session | ConfirmationSent>('/api/auth/oidc/complete-signup', { method: 'POST', body: input });
  if ('confirmation_sent' in answer) {
    localStorage.setItem(PENDING_SIGNUP_KEY, input.token);
    return answer;
  }
  setSession(answer, 'SIGNED_IN');
  return answer;
}

/** The mailed link, opened: with the sign-up token this browser kept, the account is created. */
export async function confirmSocialSignup(token: string): Promise<Session> {
  const signupToken = localStorage.getItem(PENDING_SIGNUP_KEY) ?? '';
  const session = await request<Session>('/api/auth/oidc/confirm-signup', {
    method: 'POST',
    body: { token, signup_token: signupToken },
  });
  localStorage.removeItem(PENDING_SIGNUP_KEY);
  setSession(session, 'SIGNED_IN');
  return session;
}

export function useCompleteSocialSignup() {
  return useMutation({ mutationFn: completeSocialSignup });
}

const redemptions = new Map<string, Promise<Session>>();

/**
 * The provider's callback hands over a one-time code (in the URL fragment, which never reaches a
 * server) and, to this browser only, a cookie; redeeming the two starts the session, so a callback
 * link sent to anyone else signs them in to nothing. One redemption per code even if the page
 * renders twice: the code works once.
 */
export function finishSocialSignIn(code: string): Promise<Session> {
  let redemption = redemptions.get(code);
  if (!redemption) {
    redemption = request<Session>('/api/auth/oidc/redeem', { method: 'POST', body: { code } }).then((session) => {
      setSession(session, 'SIGNED_IN');
      return session;
    });
    redemptions.set(code, redemption);
  }
  return redemption;
}
