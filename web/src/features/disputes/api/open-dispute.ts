import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import type { Dispute } from '@/features/disputes/api/get-dispute';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export const openDisputeSchema = z.object({
  reason: z.enum(['not_completed', 'poor_quality', 'no_show', 'other'], { message: 'Please choose a reason' }),
  message: z.string().trim().min(1, 'Please describe the problem').max(2000, 'Please keep it under 2000 characters'),
});
export type OpenDisputeInput = z.infer<typeof openDisputeSchema>;

export function openDispute(taskId: string, input: OpenDisputeInput) {
  return authorizedRequest<Dispute>(`/api/tasks/${encodeURIComponent(taskId)}/dispute`, { method: 'POST', body: input });
}

/** The poster disputes an assigned task: auto-release and the cancellation lapse stop until an operator decides. */
export function useOpenDispute(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: OpenDisputeInput) => openDispute(taskId, input),
    onSuccess: (dispute) => {
      client.setQueryData(queryKeys.dispute(taskId), dispute);
      void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
      void client.invalidateQueries({ queryKey: queryKeys.cancellation(taskId) });
    },
  });
}
