import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { TaskDetail } from '@/lib/marketplace';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { whenIdle } from '@/lib/when-idle';

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
 * content. The task the page carries is shown at once; the API is asked again once the browser is
 * idle after the first paint, which counts the view and brings anything newer without competing
 * with the page's first paint.
 */
export async function prefetchTask(id: string) {
  const key = queryKeys.task(id);
  const embedded = takeEmbeddedTask(id);
  if (!embedded) return queryClient.prefetchQuery({ queryKey: key, queryFn: () => getTask(id) });
  queryClient.setQueryData(key, embedded);
  void whenIdle().then(() => queryClient.invalidateQueries({ queryKey: key, exact: true }, { cancelRefetch: false }));
}

/** One task; live through `task:{id}` (status, offer count, questions). */
export function useTask(id: string) {
  return useQuery({ queryKey: queryKeys.task(id), queryFn: () => getTask(id) });
}
