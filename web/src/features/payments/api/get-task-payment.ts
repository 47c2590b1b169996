import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { ApiError } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';
import type { PaymentStatus } from '@/lib/states';

export type TaskPayment = {
  id: string;
  task_id: string;
  offer_id: string;
  /** `pending` | `processing` | `held` | `released` | `refunded` | `failed` | `expired`. */
  status: PaymentStatus;
  amount_cents: number;
  fee_cents: number;
  payout_cents: number;
  /** 0 unless (partly) refunded. */
  refunded_cents?: number;
  currency: string;
  held_at: string | null;
  released_at: string | null;
  refunded_at: string | null;
};

/** The task's escrow payment as its poster or assigned tasker sees it; null when there is none (404). */
export function getTaskPayment(taskId: string): Promise<TaskPayment | null> {
  return authorizedRequest<TaskPayment>(`/api/tasks/${encodeURIComponent(taskId)}/payment`).then(
    (payment) => (payment?.id ? payment : null),
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    },
  );
}

export function useTaskPayment(taskId: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.payment(taskId), queryFn: () => getTaskPayment(taskId), enabled });
}
