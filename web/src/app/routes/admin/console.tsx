import { Link, useNavigate, useParams } from 'react-router';

import { buttonClasses } from '@/components/ui/button';
import { Tabs } from '@/components/ui/tabs';
import { DisputeQueue } from '@/features/disputes/components/dispute-queue';
import { AuditLog } from '@/features/moderation/components/audit-log';
import { ProviderCalls } from '@/features/moderation/components/provider-calls';
import { ReportQueue } from '@/features/moderation/components/report-queue';
import { UserAdmin } from '@/features/moderation/components/user-admin';
import { useAuth } from '@/lib/auth/use-auth';
import { useTopic } from '@/lib/realtime/use-realtime';
import { usePageTitle } from '@/lib/use-page-title';

const SECTIONS = [
  { value: 'reports', label: 'Reports' },
  { value: 'users', label: 'Users' },
  { value: 'disputes', label: 'Disputes' },
  { value: 'payouts', label: 'Payouts' },
  { value: 'audit', label: 'Audit log' },
] as const;
type Section = (typeof SECTIONS)[number]['value'];

const isSection = (value: string | undefined): value is Section => SECTIONS.some((s) => s.value === value);

/** The operator console: `/admin/<section>` (`/admin` is the reports queue). Operators only (`user.is_operator`). */
export function AdminConsoleRoute() {
  const { user } = useAuth();
  const { section: param } = useParams();
  const navigate = useNavigate();
  const section: Section = isSection(param) ? param : 'reports';
  usePageTitle('Operator console');
  if (!user?.is_operator) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">This page isn't available</h1>
        <p className="mt-2 text-slate-600">The operator console is only for Taskhub operators. If you have a problem with a task, open it from My Tasks.</p>
        <Link to="/my-tasks" className={buttonClasses('primary', 'md', 'mt-6')}>
          Go to My Tasks
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold text-slate-900">Operator console</h1>
      <p className="mt-1 text-slate-600">Reports, people, disputes, parked payouts and every action taken, in one place.</p>
      <LiveQueue />
      <Tabs label="Console sections" className="mt-6" value={section} onChange={(next) => navigate(`/admin/${next}`)} items={[...SECTIONS]}>
        {section === 'reports' && <ReportQueue />}
        {section === 'users' && <UserAdmin />}
        {section === 'disputes' && <DisputeQueue />}
        {section === 'payouts' && <ProviderCalls />}
        {section === 'audit' && <AuditLog />}
      </Tabs>
    </div>
  );
}

/** Subscribes to the operators' hub topic while the console is open. */
function LiveQueue() {
  useTopic('admin');
  return null;
}
