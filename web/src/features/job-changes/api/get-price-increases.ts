import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { PriceIncreaseStatus } from '@/lib/states';

export type PriceIncrease = {
  id: string;
  task_id: string;
  tasker_id: string;
  amount_cents: number;
  reason: string;
  status: PriceIncreaseStatus;
  decline_reason: string | null;
  expires_at: string;
  created_at: string;
  answered_at: string | null;
};

export function getPriceIncreases(taskId: string) {
  return authorizedRequest<{ items: PriceIncrease[] }>(`/api/tasks/${encodeURIComponent(taskId)}/price-increases`).then((page) => page.items);
}

/** The task's price increases, oldest first; for its poster and assigned tasker. */
export function usePriceIncreases(taskId: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.priceIncreases(taskId), queryFn: () => getPriceIncreases(taskId), enabled });
}
