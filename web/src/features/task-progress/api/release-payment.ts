import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { TaskStatus } from '@/lib/states';

export type Released = {
  id: string;
  status: TaskStatus;
  /** The tip's checkout, when a tip was added. */
  tip: { session_id: string; url: string } | null;
  /** Why the tip could not be started; the release went ahead regardless. */
  tip_error: string | null;
};

export function releasePayment(taskId: string, tipCents?: number) {
  return authorizedRequest<Released>(`/api/tasks/${encodeURIComponent(taskId)}/release`, {
    method: 'POST',
    ...(tipCents ? { body: { tip_cents: tipCents } } : {}),
  });
}

/** Only the poster releases the payment (spec §1): the task is then complete. A tip is paid on its own checkout. */
export function useReleasePayment(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tipCents?: number) => releasePayment(taskId, tipCents),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
      void client.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}
