import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { PriceIncrease } from '@/features/job-changes/api/get-price-increases';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function declinePriceIncrease(id: string, reason?: string) {
  return authorizedRequest<PriceIncrease>(`/api/price-increases/${encodeURIComponent(id)}/decline`, { method: 'POST', body: { reason } });
}

/** The poster declines, with an optional reason the tasker reads. */
export function useDeclinePriceIncrease(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason?: string }) => declinePriceIncrease(id, reason),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.priceIncreases(taskId) }),
  });
}
