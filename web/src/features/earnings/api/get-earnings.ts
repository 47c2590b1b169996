import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { PayoutAccountStatus } from '@/features/earnings/api/get-payout-account';

export type EarningState =
  | 'held'
  | 'awaiting_release'
  | 'waiting_for_payout_setup'
  | 'transfer_pending'
  | 'paid_out'
  | 'refunded';

export type EarningLine = {
  task_id: string;
  task_title: string;
  state: EarningState;
  amount_cents: number;
  fee_cents: number;
  payout_cents: number;
  currency: string;
  held_at: string | null;
  released_at: string | null;
  paid_out_at: string | null;
};

export type Earnings = {
  currency: string;
  payout_account: PayoutAccountStatus;
  totals: {
    held_cents: number;
    awaiting_release_cents: number;
    released_cents: number;
    paid_out_cents: number;
    fees_cents: number;
  };
  items: EarningLine[];
};

export function getEarnings() {
  return authorizedRequest<Earnings>('/api/me/earnings');
}

export function useEarnings() {
  return useQuery({ queryKey: ['me', 'earnings'], queryFn: getEarnings });
}
