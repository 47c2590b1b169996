import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import type { CancellationRequest } from '@/features/cancellation/api/get-cancellation';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

/** The fixed list a cancellation's reason comes from; it decides whom the cancellation is attributed to. */
export const CANCELLATION_REASONS = [
  ['no_longer_needed', 'The task is no longer needed'],
  ['found_someone_else', 'Found someone else'],
  ['job_changed', 'The job changed'],
  ['poster_unresponsive', 'The poster is not responding'],
  ['tasker_unavailable', 'The tasker can no longer do it'],
  ['tasker_no_show', "The tasker didn't show up"],
  ['mutual_agreement', 'We both agreed to cancel'],
  ['weather_or_safety', 'Weather or safety'],
  ['other', 'Something else'],
] as const;

export const cancellationReasonSchema = z.object({
  reason: z.string().trim().min(1, 'Please give a reason for cancelling').max(1000, 'Please keep it under 1000 characters'),
  reason_code: z.enum(CANCELLATION_REASONS.map(([code]) => code) as [string, ...string[]]).default('other'),
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
