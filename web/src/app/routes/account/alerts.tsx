import { Link } from 'react-router';

import { AlertsManager } from '@/features/alerts/components/alerts-manager';
import { useCategories } from '@/features/categories/api/get-categories';
import { usePageTitle } from '@/lib/use-page-title';

export function AlertsRoute() {
  usePageTitle('Task alerts');
  const { data: categories = [] } = useCategories();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <p className="text-sm">
        <Link to="/settings" className="font-medium text-brand-700 hover:underline">
          Account Settings
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">Task alerts</h1>
      <p className="mt-2 text-slate-600">Hear about new tasks that fit you, even when Taskhub isn’t open.</p>
      <div className="mt-8">
        <AlertsManager categories={categories} />
      </div>
    </div>
  );
}
