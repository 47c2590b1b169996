import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function releasePayment(taskId: string) {
  return authorizedRequest<unknown>(`/api/tasks/${encodeURIComponent(taskId)}/release`, { method: 'POST' });
}

/** Only the poster releases the payment (spec §1): the task is then complete. */
export function useReleasePayment(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => releasePayment(taskId),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
      void client.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}
