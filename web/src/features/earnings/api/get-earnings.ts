import { useInfiniteQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { PayoutAccountStatus } from '@/features/earnings/api/get-payout-account';
import { queryKeys } from '@/lib/query-keys';
import type { PaymentPurpose } from '@/lib/states';

export type EarningState =
  | 'held'
  | 'awaiting_release'
  | 'waiting_for_payout_setup'
  | 'waiting_for_identity'
  | 'transfer_pending'
  | 'paid_out'
  | 'refunded';

export type EarningLine = {
  payment_id: string;
  task_id: string;
  /** `task` (the amount that bought the task), `increase` (a price increase) or `tip` (no fee). */
  purpose: PaymentPurpose;
  task_title: string;
  state: EarningState;
  amount_cents: number;
  fee_cents: number;
  payout_cents: number;
  currency: string;
  held_at: string | null;
  released_at: string | null;
  paid_out_at: string | null;
  /** The transfer is held by an operator (after a suspension) until support lifts it. */
  on_hold: boolean;
};

export type Earnings = {
  currency: string;
  payout_account: PayoutAccountStatus;
  /** Transfers wait until the tasker verifies their identity. */
  identity_needed: boolean;
  totals: {
    held_cents: number;
    awaiting_release_cents: number;
    released_cents: number;
    paid_out_cents: number;
    fees_cents: number;
  };
  /** Newest first, a page at a time; `totals` count every line whichever page this is. */
  items: EarningLine[];
  next_cursor: string | null;
  has_more: boolean;
};

export function getEarnings(cursor?: string | null) {
  return authorizedRequest<Earnings>(`/api/me/earnings${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
}

export function useEarnings() {
  return useInfiniteQuery({
    queryKey: queryKeys.myEarnings,
    queryFn: ({ pageParam }) => getEarnings(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
