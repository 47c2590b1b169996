import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import type { TaskMessage } from '@/features/task-progress/api/get-messages';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export const messageInputSchema = z.object({ body: z.string().trim().min(1).max(4000) });

export function sendMessage(taskId: string, body: string) {
  return authorizedRequest<TaskMessage>(`/api/tasks/${encodeURIComponent(taskId)}/messages`, { method: 'POST', body: { body } });
}

/** A message with a photo (multipart): the photo, and text if any. */
export function sendPhotoMessage(taskId: string, file: File, body: string) {
  const form = new FormData();
  form.append('file', file);
  if (body.trim()) form.append('body', body.trim());
  return authorizedRequest<TaskMessage>(`/api/tasks/${encodeURIComponent(taskId)}/messages`, { method: 'POST', body: form });
}

export type OutgoingMessage = string | { body: string; file: File };

export function useSendMessage(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (message: OutgoingMessage) =>
      typeof message === 'string' ? sendMessage(taskId, message) : sendPhotoMessage(taskId, message.file, message.body),
    onSuccess: (message) =>
      client.setQueryData<TaskMessage[]>(queryKeys.messages(taskId), (list = []) =>
        list.some((m) => m.id === message.id) ? list : [...list, message],
      ),
  });
}
