import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function approvePriceIncrease(id: string) {
  return authorizedRequest<{ session_id: string; url: string }>(`/api/price-increases/${encodeURIComponent(id)}/approve`, { method: 'POST' });
}

/** The poster approves: the answer is a checkout of the difference, which the app opens. */
export function useApprovePriceIncrease(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: approvePriceIncrease,
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.priceIncreases(taskId) }),
  });
}
