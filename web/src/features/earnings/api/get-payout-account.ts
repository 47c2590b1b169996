import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

/** `none`: never started · `pending`: started, not finished · `ready`: can receive transfers. */
export type PayoutAccountStatus = 'none' | 'pending' | 'ready';
export type PayoutAccount = { status: PayoutAccountStatus };


/** Asking also checks an unfinished account with the provider (after returning from onboarding). */
export function getPayoutAccount() {
  return authorizedRequest<PayoutAccount>('/api/me/payout-account');
}

export function usePayoutAccount() {
  return useQuery({ queryKey: queryKeys.payoutAccount, queryFn: getPayoutAccount });
}
