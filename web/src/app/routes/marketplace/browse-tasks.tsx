import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { useCategories } from '@/features/categories/api/get-categories';
import { BrowseFilters } from '@/features/tasks/components/browse-filters';
import { TaskList } from '@/features/tasks/components/task-list';
import { filtersFromSearch, filtersToSearch, type TaskFilters } from '@/features/tasks/api/get-tasks';
import { usePageTitle } from '@/lib/use-page-title';

export function BrowseTasksRoute() {
  usePageTitle('Browse tasks', 'Available tasks near you: cleaning, assembly, handyman work, moving, gardening and more. Make an offer on Taskhub.');
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(params), [params]);
  const { data: categories = [] } = useCategories();
  const apply = (next: TaskFilters) => setParams(filtersToSearch(next));

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Available Tasks</h1>
      <p className="mt-1 text-slate-600">Open tasks near you, updated live as they are posted.</p>
      <div className="mt-6">
        <BrowseFilters filters={filters} categories={categories} onApply={apply} />
      </div>
      <div className="mt-8">
        <TaskList filters={filters} onCategory={(category) => apply({ category })} onClear={() => apply({})} />
      </div>
    </div>
  );
}
