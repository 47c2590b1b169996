import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { TaskSummary } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export function getMyTasks(): Promise<TaskSummary[]> {
  return authorizedRequest<{ items: TaskSummary[] } | TaskSummary[]>('/api/me/tasks').then((r) => (Array.isArray(r) ? r : r.items));
}

/** Tasks I posted, any status, newest first; statuses and offer counts stay live via the `tasks` topic. */
export function useMyTasks() {
  return useQuery({ queryKey: queryKeys.myTasks, queryFn: getMyTasks });
}
