import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import { authorizedRequest } from '@/lib/auth/session';
import { ApiError } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

export const reviewInputSchema = z.object({
  rating: z.number().int().min(1, 'Please choose a rating').max(5),
  body: z.string().trim().min(1, 'Please write a short review').max(2000),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;

export function postReview(taskId: string, input: ReviewInput) {
  return authorizedRequest<unknown>(`/api/tasks/${encodeURIComponent(taskId)}/reviews`, { method: 'POST', body: input });
}

export function usePostReview(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReviewInput) => postReview(taskId, input),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
      void client.invalidateQueries({ queryKey: queryKeys.taskReviews(taskId) });
    },
    // 409: already reviewed (another tab, a double submit): the refetched list shows that review.
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) void client.invalidateQueries({ queryKey: queryKeys.taskReviews(taskId) });
    },
  });
}
