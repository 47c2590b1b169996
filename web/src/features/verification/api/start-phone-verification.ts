import { useMutation } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';

export type CodeSent = {
  /** The number the code went to, in E.164. */
  phone: string;
  expires_at: string;
  /** When another code may be asked for. */
  resend_at: string;
};

export function startPhoneVerification(phone: string) {
  return authorizedRequest<CodeSent>('/api/me/phone/start', { method: 'POST', body: { phone } });
}

/** Texts a 6-digit code to the number. */
export function useStartPhoneVerification() {
  return useMutation({ mutationFn: startPhoneVerification });
}
