import { MyTasksTabs } from '@/features/my-tasks/components/my-tasks-tabs';
import { usePageTitle } from '@/lib/use-page-title';

export function MyTasksRoute() {
  usePageTitle('My Tasks');
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">My Tasks</h1>
      <div className="mt-6">
        <MyTasksTabs />
      </div>
    </div>
  );
}
