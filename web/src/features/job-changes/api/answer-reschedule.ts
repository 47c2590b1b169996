import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { Reschedule } from '@/features/job-changes/api/get-reschedules';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function answerReschedule(id: string, answer: 'accept' | 'decline') {
  return authorizedRequest<Reschedule>(`/api/reschedules/${encodeURIComponent(id)}/${answer}`, { method: 'POST' });
}

/** The other party accepts (the task's due date changes) or declines. */
export function useAnswerReschedule(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: 'accept' | 'decline' }) => answerReschedule(id, answer),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.reschedules(taskId) });
      void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
    },
  });
}
