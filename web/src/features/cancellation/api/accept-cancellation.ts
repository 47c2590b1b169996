import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { realtimeKeys } from '@/lib/realtime/cache';

export function acceptCancellation(taskId: string) {
  return authorizedRequest<{ id: string; status: string }>(`/api/tasks/${encodeURIComponent(taskId)}/cancellation/accept`, { method: 'POST' });
}

/** The other party accepts: the task is cancelled and the held payment refunded to the poster. */
export function useAcceptCancellation(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => acceptCancellation(taskId),
    onSuccess: () => {
      client.setQueryData(realtimeKeys.cancellation(taskId), null);
      void client.invalidateQueries({ queryKey: realtimeKeys.task(taskId) });
      void client.invalidateQueries({ queryKey: realtimeKeys.payment(taskId) });
    },
  });
}
