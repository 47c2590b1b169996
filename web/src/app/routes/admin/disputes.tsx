import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button';
import { DisputeQueue } from '@/features/disputes/components/dispute-queue';
import { useAuth } from '@/lib/auth/use-auth';
import { usePageTitle } from '@/lib/use-page-title';

/** Operators only (`user.is_operator` from /api/me); everyone else is told the page is not for them. */
export function AdminDisputesRoute() {
  const { user } = useAuth();
  usePageTitle('Disputes');
  if (!user?.is_operator) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">This page isn't available</h1>
        <p className="mt-2 text-slate-600">The dispute queue is only for Taskhub operators. If you have a problem with a task, open it from My Tasks.</p>
        <Link to="/my-tasks" className={buttonClasses('primary', 'md', 'mt-6')}>
          Go to My Tasks
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold text-slate-900">Disputes</h1>
      <p className="mt-1 text-slate-600">Review each dispute, decide, and explain the decision. Both parties are notified straight away.</p>
      <div className="mt-6">
        <DisputeQueue />
      </div>
    </div>
  );
}
