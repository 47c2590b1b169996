import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';

/** One charge the poster made for a task, and what became of it. */
export type Receipt = {
  payment_id: string;
  task_id: string;
  task_title: string;
  /** `processing` | `held` | `released` | `refunded`. */
  status: string;
  amount_cents: number;
  fee_cents: number;
  refunded_cents: number;
  currency: string;
  paid_at: string;
  released_at: string | null;
  refunded_at: string | null;
};

export function getMyPayments() {
  return authorizedRequest<{ items: Receipt[] }>('/api/me/payments');
}

export function useMyPayments() {
  return useQuery({ queryKey: ['me', 'payments'], queryFn: getMyPayments });
}
