import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

import { request } from '@/lib/http';
import type { TasksPage } from '@/lib/marketplace';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';

export const SORT_OPTIONS = [
  { value: 'best_match', label: 'Best match' },
  { value: 'newest', label: 'Newest first' },
  { value: 'budget_desc', label: 'Budget: high to low' },
  { value: 'budget_asc', label: 'Budget: low to high' },
  { value: 'due_soonest', label: 'Deadline: soonest first' },
] as const;

export type SortOption = (typeof SORT_OPTIONS)[number]['value'];

/** What the server sorts by when the filters name no sort: relevance for a search, else newest. */
export function defaultSort(filters: Pick<TaskFilters, 'q'>): SortOption {
  return filters.q?.trim() ? 'best_match' : 'newest';
}

/** The sorts that mean something for these filters (Best match needs search words). */
export function sortOptionsFor(filters: Pick<TaskFilters, 'q'>) {
  return SORT_OPTIONS.filter((option) => option.value !== 'best_match' || defaultSort(filters) === 'best_match');
}

export interface TaskFilters {
  q?: string;
  category?: number;
  location?: string;
  min_budget?: number;
  max_budget?: number;
  sort?: SortOption;
  /** `lat,lon` of the place picked for `location`: then the list is "within radius_km of" it. */
  near?: string;
  radius_km?: number;
}

export const RADIUS_OPTIONS = [5, 10, 25, 50, 100] as const;
export const DEFAULT_RADIUS_KM = 10;

const NEAR = /^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/;

/** A finite number within [min, max] (and whole, when asked), as `Number()` reads it; else undefined. */
function numberIn(text: string | undefined, min: number, max: number, whole = false): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max || (whole && !Number.isInteger(value))) return undefined;
  return value;
}

/**
 * Reads the filters from a URL query, dropping anything malformed. Plain code rather than a zod
 * schema: browse is a landing page, and zod would add 24 KB (gzip) to what it downloads first.
 */
export function filtersFromSearch(params: URLSearchParams): TaskFilters {
  const text = (key: keyof TaskFilters) => params.get(key)?.trim() || undefined;
  const sort = text('sort');
  const near = text('near');
  const filters: TaskFilters = {
    q: text('q'),
    category: numberIn(text('category'), 1, 16, true),
    location: text('location'),
    min_budget: numberIn(text('min_budget'), 0, Infinity),
    max_budget: numberIn(text('max_budget'), 0, Infinity),
    sort: SORT_OPTIONS.find((option) => option.value === sort)?.value,
    near: near !== undefined && NEAR.test(near) ? near : undefined,
    radius_km: numberIn(text('radius_km'), 1, 100, true),
  };
  return withBudgetsInOrder(Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)) as TaskFilters);
}

/** The filters with a minimum budget above the maximum swapped: the API refuses such a range. */
export function withBudgetsInOrder(filters: TaskFilters): TaskFilters {
  const { min_budget: min, max_budget: max } = filters;
  return min !== undefined && max !== undefined && min > max ? { ...filters, min_budget: max, max_budget: min } : filters;
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
function tasksQuery(filters: TaskFilters) {
  return infiniteQueryOptions({
    queryKey: queryKeys.taskList(filters),
    queryFn: ({ pageParam, signal }) => getTasks(filters, pageParam, PAGE_SIZE, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    staleTime: 5 * 60 * 1000,
    refetchOnWindowFocus: true,
    placeholderData: keepPreviousData,
  });
}

export function useTasks(filters: TaskFilters) {
  return useInfiniteQuery(tasksQuery(filters));
}

/** Starts loading the first page of the list at `search` (the URL's query) before the browse page has rendered. */
export function prefetchTasks(search: string) {
  return queryClient.prefetchInfiniteQuery(tasksQuery(filtersFromSearch(new URLSearchParams(search))));
}
