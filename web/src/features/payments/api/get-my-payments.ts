import { useInfiniteQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { Page } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';
import type { PaymentStatus } from '@/lib/states';

/** One charge the poster made for a task, and what became of it. */
export type Receipt = {
  payment_id: string;
  task_id: string;
  task_title: string;
  /** `processing` | `held` | `released` | `refunded`. */
  status: PaymentStatus;
  amount_cents: number;
  fee_cents: number;
  refunded_cents: number;
  currency: string;
  paid_at: string;
  released_at: string | null;
  refunded_at: string | null;
};

export function getMyPayments(cursor?: string | null) {
  return authorizedRequest<Page<Receipt>>(`/api/me/payments${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
}

/** The poster's receipts, newest first, a page at a time. */
export function useMyPayments() {
  return useInfiniteQuery({
    queryKey: queryKeys.myPayments,
    queryFn: ({ pageParam }) => getMyPayments(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
