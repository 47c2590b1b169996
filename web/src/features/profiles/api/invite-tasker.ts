import { useMutation } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';

export type Invitation = { task_id: string; tasker_id: string; created_at: string };

/** Sends the tasker a notification inviting them to make an offer on the task (once per task). */
export function inviteTasker(taskId: string, taskerId: string) {
  return authorizedRequest<Invitation>(`/api/tasks/${encodeURIComponent(taskId)}/invitations`, {
    method: 'POST',
    body: { tasker_id: taskerId },
  });
}

export function useInviteTasker(taskerId: string) {
  return useMutation({ mutationFn: (taskId: string) => inviteTasker(taskId, taskerId) });
}
