import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { TaskStatus } from '@/lib/states';

export function declineCancellation(taskId: string) {
  return authorizedRequest<{ id: string; status: TaskStatus }>(`/api/tasks/${encodeURIComponent(taskId)}/cancellation/decline`, { method: 'POST' });
}

/** The other party declines: the task carries on. */
export function useDeclineCancellation(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => declineCancellation(taskId),
    onSuccess: () => {
      client.setQueryData(queryKeys.cancellation(taskId), null);
      void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
      void client.invalidateQueries({ queryKey: queryKeys.payment(taskId) });
    },
  });
}
