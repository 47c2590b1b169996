import { useMutation } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';

/** `url`: Stripe Identity's hosted check, or the sandbox page. */
export type IdentitySession = { url: string };

export function startIdentityVerification() {
  return authorizedRequest<IdentitySession>('/api/me/identity/session', { method: 'POST' });
}

/** Opens an identity check with the provider; the browser then goes there. */
export function useStartIdentityVerification(navigate: (url: string) => void = (url) => window.location.assign(url)) {
  return useMutation({ mutationFn: startIdentityVerification, onSuccess: (session) => navigate(session.url) });
}
