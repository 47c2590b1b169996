import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import { request } from '@/lib/http';
import type { TasksPage } from '@/lib/marketplace';
import { realtimeKeys } from '@/lib/realtime/cache';

export const SORT_OPTIONS = [
  { value: 'newest', label: 'Newest first' },
  { value: 'budget_desc', label: 'Budget: high to low' },
  { value: 'budget_asc', label: 'Budget: low to high' },
  { value: 'due_soonest', label: 'Deadline: soonest first' },
] as const;

export const taskFiltersSchema = z.object({
  q: z.string().trim().optional().catch(undefined),
  category: z.coerce.number().int().min(1).max(16).optional().catch(undefined),
  location: z.string().trim().optional().catch(undefined),
  min_budget: z.coerce.number().min(0).optional().catch(undefined),
  max_budget: z.coerce.number().min(0).optional().catch(undefined),
  sort: z.enum(['newest', 'budget_desc', 'budget_asc', 'due_soonest']).optional().catch(undefined),
  /** `lat,lon` of the place picked for `location`: then the list is "within radius_km of" it. */
  near: z.string().regex(/^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/).optional().catch(undefined),
  radius_km: z.coerce.number().int().min(1).max(100).optional().catch(undefined),
});

export const RADIUS_OPTIONS = [5, 10, 25, 50, 100] as const;
export const DEFAULT_RADIUS_KM = 10;

export type TaskFilters = z.infer<typeof taskFiltersSchema>;

/** Reads the filters from a URL query, dropping anything malformed. */
export function filtersFromSearch(params: URLSearchParams): TaskFilters {
  const raw: Record<string, string> = {};
  for (const key of ['q', 'category', 'location', 'min_budget', 'max_budget', 'sort', 'near', 'radius_km']) {
    const value = params.get(key);
    if (value !== null && value.trim() !== '') raw[key] = value;
  }
  const parsed = taskFiltersSchema.parse(raw);
  return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined && v !== '')) as TaskFilters;
}

export function filtersToSearch(filters: TaskFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== undefined && value !== '') params.set(key, String(value));
  return params;
}

export const PAGE_SIZE = 12;

export function getTasks(filters: TaskFilters, cursor?: string | null, limit = PAGE_SIZE, signal?: AbortSignal): Promise<TasksPage> {
  const params = filtersToSearch(filters);
  // A picked place filters by distance; its name is only the label then.
  if (filters.near) {
    params.delete('location');
    if (!filters.radius_km) params.set('radius_km', String(DEFAULT_RADIUS_KM));
  }
  params.set('limit', String(limit));
  if (cursor) params.set('cursor', cursor);
  return request<TasksPage>(`/api/tasks?${params}`, { signal });
}

/** The browse list, page by page (keyset cursors); cached 5 minutes and refetched on focus (spec §7). */
export function useTasks(filters: TaskFilters) {
  return useInfiniteQuery({
    queryKey: [...realtimeKeys.taskLists, filters],
    queryFn: ({ pageParam, signal }) => getTasks(filters, pageParam, PAGE_SIZE, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    staleTime: 5 * 60 * 1000,
    refetchOnWindowFocus: true,
    placeholderData: keepPreviousData,
  });
}
