import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

import type { AlertInput } from '@/features/alerts/api/get-alerts';
import { AlertMeButton } from '@/features/alerts/components/alert-me-button';
import { FirstAlertOffer } from '@/features/alerts/components/first-alert-offer';
import { useCategories } from '@/features/categories/api/get-categories';
import { BrowseFilters } from '@/features/tasks/components/browse-filters';
import { TaskList } from '@/features/tasks/components/task-list';
import { filtersFromSearch, filtersToSearch, type TaskFilters } from '@/features/tasks/api/get-tasks';
import { useAuth } from '@/lib/auth/use-auth';
import { usePageTitle } from '@/lib/use-page-title';

/** The browse filters as an alert: keywords, category, the picked place and radius, minimum budget. */
export function alertFromFilters(filters: TaskFilters): AlertInput {
  const [lat, lon] = filters.near ? filters.near.split(',').map(Number) : [];
  const place = filters.near && filters.location ? { label: filters.location, lat, lon } : null;
  return {
    q: filters.q ?? '',
    categories: filters.category ? [filters.category] : [],
    place,
    radius_km: place ? (filters.radius_km ?? 10) : null,
    remote_ok: false,
    min_budget_cents: filters.min_budget ? Math.round(filters.min_budget * 100) : null,
    paused: false,
  };
}

export function BrowseTasksRoute() {
  usePageTitle('Browse tasks', 'Available tasks near you: cleaning, assembly, handyman work, moving, gardening and more. Make an offer on Taskhub.');
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(params), [params]);
  const { data: categories = [] } = useCategories();
  const apply = (next: TaskFilters) => setParams(filtersToSearch(next));
  const { profile } = useAuth();

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Available Tasks</h1>
      <p className="mt-1 text-slate-600">Open tasks near you, updated live as they are posted.</p>
      <div className="mt-6">
        <BrowseFilters filters={filters} categories={categories} onApply={apply} />
      </div>
      {profile?.is_tasker && (
        <div className="mt-4">
          <FirstAlertOffer skills={profile.skills ?? []} location={profile.location} />
        </div>
      )}
      {profile?.is_tasker && (filters.q || filters.category || filters.near) && (
        <div className="mt-4">
          <AlertMeButton input={alertFromFilters(filters)} />
        </div>
      )}
      <div className="mt-8">
        <TaskList filters={filters} onCategory={(category) => apply({ category })} onClear={() => apply({})} />
      </div>
    </div>
  );
}
