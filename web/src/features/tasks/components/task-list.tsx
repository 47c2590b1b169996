import { AnimatePresence, m } from 'framer-motion';
import { SearchX } from 'lucide-react';
import { useEffect, useRef } from 'react';

import { TaskCard, TaskCardSkeleton } from '@/components/tasks/task-card';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useTasks, type TaskFilters } from '@/features/tasks/api/get-tasks';
import { useIncomingTasks } from '@/features/tasks/hooks/use-incoming-tasks';
import { errorMessage } from '@/lib/http';

/** Spec §9: 6 skeleton cards while loading. */
export const SKELETON_CARDS = 6;

export function TaskList({ filters, onCategory, onClear }: {
  filters: TaskFilters;
  onCategory: (categoryId: number) => void;
  onClear: () => void;
}) {
  const query = useTasks(filters);
  const { incoming, show } = useIncomingTasks(filters);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    }, { rootMargin: '400px' });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (query.isPending) {
    return (
      <div role="status" aria-label="Loading tasks" className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          <TaskCardSkeleton key={i} />
        ))}
      </div>
    );
  }
  if (query.isError) {
    return (
      <Alert title="Error loading tasks">
        <p>{errorMessage(query.error, 'Something went wrong while loading tasks')}</p>
        <Button variant="outline" size="sm" className="mt-3" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  const tasks = query.data.pages.flatMap((p) => p.items);

  return (
    <div className="relative">
      <AnimatePresence>
        {incoming.length > 0 && (
          <m.div
            initial={{ opacity: 0, y: -12 }}
            animate={{ opacity: 1, y: 0 }}
            exit={{ opacity: 0, y: -12 }}
            className="sticky top-20 z-20 mb-4 flex justify-center"
          >
            <button
              type="button"
              onClick={() => {
                window.scrollTo?.({ top: 0, behavior: 'smooth' });
                void show();
              }}
              className="rounded-full bg-brand-700 px-4 py-2 text-sm font-semibold text-white shadow-lg hover:bg-brand-800"
            >
              {incoming.length} new {incoming.length === 1 ? 'task' : 'tasks'} — show
            </button>
          </m.div>
        )}
      </AnimatePresence>

      {tasks.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
          <SearchX aria-hidden className="mx-auto h-10 w-10 text-slate-400" />
          <h2 className="mt-3 text-lg font-semibold text-slate-900">No tasks found</h2>
          <p className="mt-1 text-sm text-slate-600">Try adjusting your search or filters to find more tasks.</p>
          <Button variant="outline" className="mt-4" onClick={onClear}>
            Clear all filters
          </Button>
        </div>
      ) : (
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" aria-label="Tasks">
          <AnimatePresence initial={false}>
            {tasks.map((task) => (
              <m.li key={task.id} layout initial={{ opacity: 0, scale: 0.97 }} animate={{ opacity: 1, scale: 1 }} exit={{ opacity: 0, scale: 0.95 }}>
                <TaskCard task={task} onCategory={onCategory} headingLevel={2} />
              </m.li>
            ))}
          </AnimatePresence>
        </ul>
      )}
      <div ref={sentinel} />
      {hasNextPage && (
        <div className="mt-6 flex justify-center">
          <Button variant="outline" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            Load more tasks
          </Button>
        </div>
      )}
    </div>
  );
}
