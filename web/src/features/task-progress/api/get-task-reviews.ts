import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export type TaskReview = {
  id: string;
  task_id: string;
  reviewer_id: string;
  reviewee_id: string;
  rating: number;
  /** Null once a moderator removed it. */
  body: string | null;
  removed?: boolean;
  created_at: string;
};


/** The task's visible reviews, and the caller's own even while it is hidden from others. */
export function getTaskReviews(taskId: string) {
  return authorizedRequest<TaskReview[]>(`/api/tasks/${encodeURIComponent(taskId)}/reviews`);
}

export function useTaskReviews(taskId: string) {
  return useQuery({ queryKey: queryKeys.taskReviews(taskId), queryFn: () => getTaskReviews(taskId) });
}
