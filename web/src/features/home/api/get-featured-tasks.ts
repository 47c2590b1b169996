import { useQuery } from '@tanstack/react-query';

import { request } from '@/lib/http';
import type { TasksPage } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

/** Spec §9: 6 featured tasks. */
export const FEATURED_COUNT = 6;

export function getFeaturedTasks(): Promise<TasksPage> {
  return request<TasksPage>(`/api/tasks?limit=${FEATURED_COUNT}&sort=newest`);
}

export function useFeaturedTasks() {
  return useQuery({ queryKey: queryKeys.featuredTasks, queryFn: getFeaturedTasks, staleTime: 5 * 60 * 1000 });
}
