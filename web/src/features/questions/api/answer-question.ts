import { useMutation, useQueryClient } from '@tanstack/react-query';

import { upsertQuestion } from '@/features/questions/api/ask-question';
import { authorizedRequest } from '@/lib/auth/session';
import type { Question } from '@/lib/marketplace';

export function answerQuestion(questionId: string, body: string) {
  return authorizedRequest<Question>(`/api/questions/${encodeURIComponent(questionId)}/answer`, { method: 'POST', body: { body } });
}

export function useAnswerQuestion(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ questionId, body }: { questionId: string; body: string }) => answerQuestion(questionId, body),
    onSuccess: (question) => upsertQuestion(client, taskId, question),
  });
}
