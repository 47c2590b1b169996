import { useQuery } from '@tanstack/react-query';

import type { Dispute } from '@/features/disputes/api/get-dispute';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { PaymentStatus, TaskStatus } from '@/lib/states';

export type DisputeCase = Dispute & {
  task: { id: string; title: string; status: TaskStatus };
  poster: { id: string; name: string };
  tasker: { id: string; name: string };
  payment: { amount_cents: number; fee_cents: number; currency: string; status: PaymentStatus };
};
export type DisputeQueueStatus = 'open' | 'resolved';

export function getAdminDisputes(status: DisputeQueueStatus): Promise<DisputeCase[]> {
  return authorizedRequest<{ items: DisputeCase[] }>(`/api/admin/disputes?status=${status}`).then((r) => r.items);
}

/** The operators' queue; refreshed on dispute notifications and every minute while open. */
export function useAdminDisputes(status: DisputeQueueStatus, enabled = true) {
  return useQuery({
    queryKey: queryKeys.adminDisputesWith(status),
    queryFn: () => getAdminDisputes(status),
    enabled,
    refetchInterval: 60_000,
  });
}
