import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import type { CancellationRequest } from '@/features/cancellation/api/get-cancellation';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export const cancellationReasonSchema = z.object({
  reason: z.string().trim().min(1, 'Please give a reason for cancelling').max(1000, 'Please keep it under 1000 characters'),
});
export type CancellationInput = z.infer<typeof cancellationReasonSchema>;

export function requestCancellation(taskId: string, input: CancellationInput) {
  return authorizedRequest<CancellationRequest>(`/api/tasks/${encodeURIComponent(taskId)}/cancellation`, { method: 'POST', body: input });
}

/** Either party of an assigned task asks to cancel; the other has 48 hours to accept or decline. */
export function useRequestCancellation(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CancellationInput) => requestCancellation(taskId, input),
    onSuccess: (row) => client.setQueryData(queryKeys.cancellation(taskId), row),
  });
}
