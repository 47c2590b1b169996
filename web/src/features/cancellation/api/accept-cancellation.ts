import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { TaskStatus } from '@/lib/states';

export function acceptCancellation(taskId: string) {
  return authorizedRequest<{ id: string; status: TaskStatus }>(`/api/tasks/${encodeURIComponent(taskId)}/cancellation/accept`, { method: 'POST' });
}

/** The other party accepts: the task is cancelled and the held payment refunded to the poster. */
export function useAcceptCancellation(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => acceptCancellation(taskId),
    onSuccess: () => {
      client.setQueryData(queryKeys.cancellation(taskId), null);
      void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
      void client.invalidateQueries({ queryKey: queryKeys.payment(taskId) });
    },
  });
}
