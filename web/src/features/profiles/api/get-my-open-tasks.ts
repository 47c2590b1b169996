import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { TaskStatus } from '@/lib/states';

export type MyTask = { id: string; title: string; status: TaskStatus; due_date?: string | null };

export async function getMyOpenTasks(): Promise<MyTask[]> {
  const result = await authorizedRequest<MyTask[] | { items: MyTask[] }>('/api/me/tasks');
  const items = Array.isArray(result) ? result : (result?.items ?? []);
  return items.filter((task) => task.status === 'open');
}

export function useMyOpenTasks(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.myOpenTasks, queryFn: getMyOpenTasks, enabled });
}
