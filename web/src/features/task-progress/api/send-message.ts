import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import type { TaskMessage } from '@/features/task-progress/api/get-messages';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export const messageInputSchema = z.object({ body: z.string().trim().min(1).max(4000) });

export function sendMessage(taskId: string, body: string) {
  return authorizedRequest<TaskMessage>(`/api/tasks/${encodeURIComponent(taskId)}/messages`, { method: 'POST', body: { body } });
}

export function useSendMessage(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => sendMessage(taskId, body),
    onSuccess: (message) =>
      client.setQueryData<TaskMessage[]>(queryKeys.messages(taskId), (list = []) =>
        list.some((m) => m.id === message.id) ? list : [...list, message],
      ),
  });
}
