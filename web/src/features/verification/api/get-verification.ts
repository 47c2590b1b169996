import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export type MyVerification = {
  email: boolean;
  phone: boolean;
  identity: boolean;
  payment: boolean;
  /** The verified number (E.164), when `phone`. */
  phone_number: string | null;
  identity_verified_at: string | null;
  /** A check was started and the provider has not decided yet. */
  identity_pending: boolean;
  /** The last check failed; another may be started. */
  identity_failed: boolean;
  identity_required_for_payouts: boolean;
};

/** Asking also checks a pending identity verification with its provider (after returning from it). */
export function getVerification() {
  return authorizedRequest<MyVerification>('/api/me/verification');
}

export function useVerification() {
  return useQuery({ queryKey: queryKeys.myVerification, queryFn: getVerification });
}
