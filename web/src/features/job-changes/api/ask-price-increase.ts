import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { PriceIncrease } from '@/features/job-changes/api/get-price-increases';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function askPriceIncrease(taskId: string, input: { amount_cents: number; reason: string }) {
  return authorizedRequest<PriceIncrease>(`/api/tasks/${encodeURIComponent(taskId)}/price-increases`, { method: 'POST', body: input });
}

/** The assigned tasker asks for more (all increases together at most A$2,500 or the original amount). */
export function useAskPriceIncrease(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { amount_cents: number; reason: string }) => askPriceIncrease(taskId, input),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.priceIncreases(taskId) }),
  });
}
