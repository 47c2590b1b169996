import { useQueryClient } from '@tanstack/react-query';
import { ArrowRight } from 'lucide-react';
import { useCallback } from 'react';
import { Link } from 'react-router';

import { TaskCard, TaskCardSkeleton } from '@/components/tasks/task-card';
import { FEATURED_COUNT, useFeaturedTasks } from '@/features/home/api/get-featured-tasks';
import { queryKeys } from '@/lib/query-keys';
import type { RealtimeEvent } from '@/lib/realtime/types';
import { useRealtimeEvents, useTopic } from '@/lib/realtime/use-realtime';

/** The newest open tasks, live: a new post or an assignment refreshes the six. */
export function FeaturedTasks() {
  const { data, isPending, isError } = useFeaturedTasks();
  const client = useQueryClient();
  useTopic('tasks');
  useRealtimeEvents(
    useCallback(
      (event: RealtimeEvent) => {
        if (event.topic === 'tasks') void client.invalidateQueries({ queryKey: queryKeys.featuredTasks });
      },
      [client],
    ),
  );
  if (isError || (data && !data.items.length)) return null;

  return (
    <section aria-labelledby="featured-heading" className="bg-slate-50 py-16">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2 id="featured-heading" className="text-3xl font-bold tracking-tight text-slate-900">
              Featured tasks
            </h2>
            <p className="mt-2 text-slate-600">Fresh tasks posted by people near you, live.</p>
          </div>
          <Link to="/tasks" className="inline-flex items-center gap-1 font-semibold text-brand-700 hover:underline">
            Browse all tasks <ArrowRight aria-hidden className="h-4 w-4" />
          </Link>
        </div>
        <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {isPending
            ? Array.from({ length: FEATURED_COUNT }, (_, i) => (
                <li key={i}>
                  <TaskCardSkeleton />
                </li>
              ))
            : data.items.slice(0, FEATURED_COUNT).map((task) => (
                <li key={task.id}>
                  <TaskCard task={task} />
                </li>
              ))}
        </ul>
      </div>
    </section>
  );
}
