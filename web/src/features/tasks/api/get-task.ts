import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { TaskDetail } from '@/lib/marketplace';
import { queryClient } from '@/lib/query-client';
import { realtimeKeys } from '@/lib/realtime/cache';

export function getTask(id: string): Promise<TaskDetail> {
  return authorizedRequest<TaskDetail>(`/api/tasks/${encodeURIComponent(id)}`);
}

/** Starts loading a task before its page has rendered: on a landing visit, the task is the page's main content. */
export function prefetchTask(id: string) {
  return queryClient.prefetchQuery({ queryKey: realtimeKeys.task(id), queryFn: () => getTask(id) });
}

/** One task; live through `task:{id}` (status, offer count, questions). */
export function useTask(id: string) {
  return useQuery({ queryKey: realtimeKeys.task(id), queryFn: () => getTask(id) });
}
