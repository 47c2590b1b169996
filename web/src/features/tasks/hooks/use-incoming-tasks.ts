import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';

import type { TaskSummary } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';
import { useTopic } from '@/lib/realtime/use-realtime';
import type { TaskFilters } from '@/features/tasks/api/get-tasks';

function matches(task: TaskSummary, filters: TaskFilters) {
  if (task.status !== 'open') return false;
  if (filters.category && task.category_id !== filters.category) return false;
  const q = filters.q?.toLowerCase();
  if (q && !`${task.title} ${task.description}`.toLowerCase().includes(q)) return false;
  const loc = filters.location?.toLowerCase();
  if (loc && !task.location.toLowerCase().includes(loc)) return false;
  if (filters.min_budget !== undefined && task.budget_cents < filters.min_budget * 100) return false;
  if (filters.max_budget !== undefined && task.budget_cents > filters.max_budget * 100) return false;
  return true;
}

/** Tasks posted since the list loaded (from the `tasks` topic) that fit the filters; `show` folds them in. */
export function useIncomingTasks(filters: TaskFilters) {
  useTopic('tasks');
  const client = useQueryClient();
  const { data = [] } = useQuery<TaskSummary[]>({
    queryKey: queryKeys.incoming,
    queryFn: () => client.getQueryData<TaskSummary[]>(queryKeys.incoming) ?? [],
    staleTime: Infinity,
    initialData: [],
  });
  const incoming = useMemo(() => data.filter((task) => matches(task, filters)), [data, filters]);
  const show = useCallback(async () => {
    client.setQueryData(queryKeys.incoming, []);
    await client.invalidateQueries({ queryKey: queryKeys.taskLists });
  }, [client]);
  return { incoming, show };
}
