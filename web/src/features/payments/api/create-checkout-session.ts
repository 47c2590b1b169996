import { useMutation } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';

export type CheckoutSession = { session_id: string; url: string | null };

export function createCheckoutSession(input: { task_id: string; offer_id: string }) {
  return authorizedRequest<CheckoutSession>('/api/payments/checkout-session', { method: 'POST', body: input });
}

export function useCreateCheckoutSession() {
  return useMutation({ mutationFn: createCheckoutSession });
}
