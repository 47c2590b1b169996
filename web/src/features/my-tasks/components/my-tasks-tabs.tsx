import { ClipboardList, MessageSquare } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { Tabs } from '@/components/ui/tabs';
import { useMyOffers } from '@/features/my-tasks/api/get-my-offers';
import { useMyTasks } from '@/features/my-tasks/api/get-my-tasks';
import { useTaskChanges } from '@/features/my-tasks/api/get-task-changes';
import { formatDate } from '@/lib/format';
import { ApiError } from '@/lib/http';
import { formatMoney, statusLabel } from '@/lib/marketplace';
import { useTopic } from '@/lib/realtime/use-realtime';

/** Spec §9: 3 loading placeholders. */
export const MY_TASKS_PLACEHOLDERS = 3;

function Placeholders() {
  return (
    <ul role="status" aria-label="Loading" className="space-y-3">
      {Array.from({ length: MY_TASKS_PLACEHOLDERS }, (_, i) => (
        <li key={i} aria-hidden className="h-24 animate-pulse rounded-xl border border-slate-200 bg-white p-4">
          <div className="h-4 w-1/2 rounded bg-slate-200" />
          <div className="mt-3 h-3 w-1/3 rounded bg-slate-100" />
        </li>
      ))}
    </ul>
  );
}

const serverMessage = (error: unknown, fallback: string) => (error instanceof ApiError && error.status > 0 && error.message ? error.message : fallback);

const offerStatus: Record<string, string> = { pending: 'Pending', accepted: 'Accepted', not_selected: 'Not selected', withdrawn: 'Withdrawn' };

function Status({ status }: { status: string }) {
  return <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{status}</span>;
}

/** "Price increase waiting", "New date proposed": what waits for an answer on the task. */
function ChangeBadges({ taskId }: { taskId: string }) {
  const changes = useTaskChanges().data?.find((entry) => entry.task_id === taskId);
  if (!changes) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {changes.price_increase_waiting && (
        <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800">Price increase waiting</span>
      )}
      {changes.new_date_proposed && <span className="rounded-full bg-sky-100 px-2 py-0.5 text-xs font-semibold text-sky-800">New date proposed</span>}
    </span>
  );
}

function Posted() {
  const { data, isPending, isError, error } = useMyTasks();
  if (isPending) return <Placeholders />;
  if (isError) return <Alert>{serverMessage(error, 'Error loading your tasks')}</Alert>;
  if (!data.length)
    return (
      <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
        <ClipboardList aria-hidden className="mx-auto h-10 w-10 text-slate-400" />
        <p className="mt-3 font-semibold text-slate-900">You haven't posted any tasks yet</p>
        <Link to="/post-task" className={buttonClasses('primary', 'md', 'mt-4')}>
          Post a Task
        </Link>
      </div>
    );
  return (
    <ul className="space-y-3">
      {data.map((task) => (
        <li key={task.id}>
          <Link to={`/task/${task.id}`} className="block rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-300">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <h3 className="font-semibold text-slate-900">{task.title}</h3>
              <ChangeBadges taskId={task.id} />
              <Status status={statusLabel(task.status)} />
            </div>
            <p className="mt-1 text-sm text-slate-600">
              {formatMoney(task.budget_cents, task.currency)} · {task.location} {task.due_date && `· Due ${formatDate(task.due_date)}`}
            </p>
            <p className="mt-2 flex items-center gap-1 text-sm text-slate-500">
              <MessageSquare aria-hidden className="h-4 w-4" /> {task.offer_count} {task.offer_count === 1 ? 'offer' : 'offers'}
            </p>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function Offering() {
  const { data, isPending, isError, error } = useMyOffers();
  if (isPending) return <Placeholders />;
  if (isError) return <Alert>{serverMessage(error, 'Error loading your offers')}</Alert>;
  if (!data.length)
    return (
      <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
        <MessageSquare aria-hidden className="mx-auto h-10 w-10 text-slate-400" />
        <p className="mt-3 font-semibold text-slate-900">You haven't offered on any tasks yet</p>
        <Link to="/tasks" className={buttonClasses('primary', 'md', 'mt-4')}>
          Browse Tasks
        </Link>
      </div>
    );
  return (
    <ul className="space-y-3">
      {data.map((offer) => (
        <li key={offer.id}>
          <Link to={`/task/${offer.task.id}`} className="block rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-300">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <h3 className="font-semibold text-slate-900">{offer.task.title}</h3>
              <ChangeBadges taskId={offer.task.id} />
              <Status status={offerStatus[offer.status] ?? offer.status} />
            </div>
            <p className="mt-1 text-sm text-slate-600">
              Your offer {formatMoney(offer.amount_cents, offer.task.currency)} · Budget {formatMoney(offer.task.budget_cents, offer.task.currency)} · Task{' '}
              {statusLabel(offer.task.status).toLowerCase()}
            </p>
            <p className="mt-1 text-xs text-slate-500">Posted by {offer.task.poster?.name || 'Anonymous'}</p>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function MyTasksTabs() {
  const [tab, setTab] = useState<'posted' | 'offering'>('posted');
  useTopic('tasks');
  return (
    <Tabs
      label="My tasks"
      value={tab}
      onChange={setTab}
      items={[
        { value: 'posted', label: 'Tasks I Posted' },
        { value: 'offering', label: "Tasks I'm Offering On" },
      ]}
    >
      <div className="mt-6">{tab === 'posted' ? <Posted /> : <Offering />}</div>
    </Tabs>
  );
}
