import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { realtimeKeys } from '@/lib/realtime/cache';

export function declineCancellation(taskId: string) {
  return authorizedRequest<{ id: string; status: string }>(`/api/tasks/${encodeURIComponent(taskId)}/cancellation/decline`, { method: 'POST' });
}

/** The other party declines: the task carries on. */
export function useDeclineCancellation(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => declineCancellation(taskId),
    onSuccess: () => {
      client.setQueryData(realtimeKeys.cancellation(taskId), null);
      void client.invalidateQueries({ queryKey: realtimeKeys.task(taskId) });
      void client.invalidateQueries({ queryKey: realtimeKeys.payment(taskId) });
    },
  });
}
