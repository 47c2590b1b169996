import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { TaskDetail } from '@/lib/marketplace';
import { queryClient } from '@/lib/query-client';
import { realtimeKeys } from '@/lib/realtime/cache';

export function getTask(id: string): Promise<TaskDetail> {
  return authorizedRequest<TaskDetail>(`/api/tasks/${encodeURIComponent(id)}`);
}

/**
 * The task the server wrote into the page landed on (`<script type="application/json" id="task-data">`
 * in `task.html`), if it is this one. Read once: the page is not rewritten as the app moves on.
 */
function takeEmbeddedTask(id: string): TaskDetail | undefined {
  const element = document.getElementById('task-data');
  if (!element) return undefined;
  element.remove();
  try {
    const task = JSON.parse(element.textContent ?? '') as TaskDetail;
    return task?.id === id ? task : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts loading a task before its page has rendered: on a landing visit, the task is the page's main
 * content. The task the page carries is shown at once, and marked stale so that the page still asks
 * the API when it mounts (which counts the view and brings anything newer).
 */
export async function prefetchTask(id: string) {
  const key = realtimeKeys.task(id);
  const embedded = takeEmbeddedTask(id);
  if (!embedded) return queryClient.prefetchQuery({ queryKey: key, queryFn: () => getTask(id) });
  queryClient.setQueryData(key, embedded);
  await queryClient.invalidateQueries({ queryKey: key, exact: true, refetchType: 'none' });
}

/** One task; live through `task:{id}` (status, offer count, questions). */
export function useTask(id: string) {
  return useQuery({ queryKey: realtimeKeys.task(id), queryFn: () => getTask(id) });
}
