import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { Question, TaskDetail } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export function askQuestion(taskId: string, body: string) {
  return authorizedRequest<Question>(`/api/tasks/${encodeURIComponent(taskId)}/questions`, { method: 'POST', body: { body } });
}

function upsertQuestion(client: ReturnType<typeof useQueryClient>, taskId: string, question: Question) {
  client.setQueryData<TaskDetail>(queryKeys.task(taskId), (task) =>
    task
      ? {
          ...task,
          questions: task.questions.some((q) => q.id === question.id)
            ? task.questions.map((q) => (q.id === question.id ? question : q))
            : [...task.questions, question],
        }
      : task,
  );
}

export function useAskQuestion(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => askQuestion(taskId, body),
    onSuccess: (question) => upsertQuestion(client, taskId, question),
  });
}

export { upsertQuestion };
