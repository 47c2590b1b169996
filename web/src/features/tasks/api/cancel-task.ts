import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { TaskDetail } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export function cancelTask(id: string) {
  return authorizedRequest<TaskDetail>(`/api/tasks/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
}

export function useCancelTask(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => cancelTask(id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.task(id) });
      void client.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}
