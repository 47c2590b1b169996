import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export type TaskChanges = { task_id: string; price_increase_waiting: boolean; new_date_proposed: boolean };

export function getTaskChanges(): Promise<TaskChanges[]> {
  return authorizedRequest<{ items: TaskChanges[] }>('/api/me/task-changes').then((page) => page.items);
}

/** My tasks (posted or assigned) with a price increase or a new date waiting for an answer. */
export function useTaskChanges() {
  return useQuery({ queryKey: queryKeys.myTaskChanges, queryFn: getTaskChanges });
}
