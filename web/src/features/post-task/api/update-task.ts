import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toTaskBody, type TaskForm } from '@/features/post-task/api/create-task';
import { authorizedRequest } from '@/lib/auth/session';
import type { TaskDetail } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

/** The form as the edit screen starts it: what the task says now. */
export function taskFormOf(task: TaskDetail): TaskForm {
  return {
    title: task.title,
    description: task.description,
    category: String(task.category_id),
    location: task.location,
    budget: String(task.budget_cents / 100),
    date: task.due_date ?? '',
  };
}

/**
 * Only the fields the poster changed: an unchanged due date that has since passed must not be sent,
 * or the server would reject it as in the past.
 */
export function changedFields(initial: TaskForm, edited: TaskForm): Record<string, unknown> {
  const before = toTaskBody(initial);
  const after = toTaskBody(edited);
  return Object.fromEntries(Object.entries(after).filter(([key, value]) => before[key as keyof typeof before] !== value));
}

export function updateTask(id: string, changes: Record<string, unknown>) {
  return authorizedRequest<TaskDetail>(`/api/tasks/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes });
}

export function useUpdateTask(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: Record<string, unknown>) => updateTask(id, changes),
    onSuccess: (task) => {
      client.setQueryData(queryKeys.task(id), task);
      void client.invalidateQueries({ queryKey: queryKeys.myTasks });
    },
  });
}
