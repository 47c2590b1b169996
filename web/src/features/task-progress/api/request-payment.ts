import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function requestPayment(taskId: string) {
  return authorizedRequest<unknown>(`/api/tasks/${encodeURIComponent(taskId)}/request-payment`, { method: 'POST' });
}

/** The assigned tasker asks the poster to release the held payment. */
export function useRequestPayment(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => requestPayment(taskId),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.task(taskId) }),
  });
}
