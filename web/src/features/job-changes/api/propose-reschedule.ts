import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { Reschedule } from '@/features/job-changes/api/get-reschedules';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export type ProposeRescheduleInput = { due_date: string; window?: string; note?: string };

export function proposeReschedule(taskId: string, input: ProposeRescheduleInput) {
  return authorizedRequest<Reschedule>(`/api/tasks/${encodeURIComponent(taskId)}/reschedule`, { method: 'POST', body: input });
}

/** Either party proposes a new date; the other has 48 hours to answer. */
export function useProposeReschedule(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ProposeRescheduleInput) => proposeReschedule(taskId, input),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.reschedules(taskId) }),
  });
}
