import { useState } from 'react';
import { Link } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { useAdminDisputes, type DisputeCase, type DisputeQueueStatus } from '@/features/disputes/api/get-admin-disputes';
import { reasonLabel } from '@/features/disputes/api/get-dispute';
import { describeOutcome } from '@/features/disputes/components/describe-outcome';
import { ResolveDisputeForm } from '@/features/disputes/components/resolve-dispute-form';
import { errorMessage } from '@/lib/http';
import { formatMoney } from '@/lib/marketplace';

const dateTime = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-AU', { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' }) : '';

/** The operators' queue: open disputes with a decision form each, and the resolved ones. */
export function DisputeQueue() {
  const [tab, setTab] = useState<DisputeQueueStatus>('open');
  const disputes = useAdminDisputes(tab);
  return (
    <Tabs
      label="Disputes"
      value={tab}
      onChange={setTab}
      items={[
        { value: 'open', label: 'Open' },
        { value: 'resolved', label: 'Resolved' },
      ]}
    >
      {disputes.isPending ? (
        <PageSpinner label="Loading disputes" />
      ) : disputes.isError ? (
        <Alert>{errorMessage(disputes.error, 'The disputes could not be loaded. Please try again.')}</Alert>
      ) : disputes.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 p-8 text-center text-slate-600">
          {tab === 'open' ? 'No open disputes. Nice and quiet.' : 'No resolved disputes yet.'}
        </p>
      ) : (
        <ul className="space-y-4">
          {disputes.data.map((item) => (
            <li key={item.id}>
              <DisputeCaseCard item={item} />
            </li>
          ))}
        </ul>
      )}
    </Tabs>
  );
}

/** Who wrote the case's message: either party, or the poster's cancellation request nobody answered. */
function caseAuthor(item: DisputeCase): string {
  if (item.from_cancellation) return `${item.poster.name}'s unanswered cancellation request (the tasker had asked to be paid)`;
  return `${item.opened_by === item.tasker.id ? item.tasker.name : item.poster.name}'s message`;
}

function DisputeCaseCard({ item }: { item: DisputeCase }) {
  const { amount_cents: amount, currency } = item.payment;
  const headingId = `dispute-${item.id}-title`;
  return (
    <article aria-labelledby={headingId} className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm" data-dispute-id={item.id}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Link to={`/task/${item.task.id}`} className="hover:text-brand-700 hover:underline">
          {item.task.title}
        </Link>
      </h2>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <Row label="Poster" value={item.poster.name} />
        <Row label="Tasker" value={item.tasker.name} />
        <Row label="Amount" value={`${formatMoney(amount, currency, true)} (fee ${formatMoney(item.payment.fee_cents, currency, true)})`} />
        <Row label="Reason" value={reasonLabel(item.reason)} />
        <Row label="Opened" value={dateTime(item.created_at)} />
        {item.resolved_at && <Row label="Resolved" value={dateTime(item.resolved_at)} />}
      </dl>
      <div>
        <h3 className="text-sm font-medium text-slate-800">{caseAuthor(item)}</h3>
        <p className="mt-1 whitespace-pre-line break-words rounded-lg bg-slate-50 p-3 text-sm text-slate-700">{item.message}</p>
      </div>
      {item.status === 'open' ? (
        <ResolveDisputeForm item={item} />
      ) : (
        <ResolvedSummary item={item} />
      )}
    </article>
  );
}

function ResolvedSummary({ item }: { item: DisputeCase }) {
  const outcome = describeOutcome(item, {
    amountCents: item.payment.amount_cents,
    currency: item.payment.currency,
    posterName: item.poster.name,
    taskerName: item.tasker.name,
    viewer: 'operator',
  });
  return (
    <div className="space-y-1 rounded-xl bg-slate-50 p-4 text-sm text-slate-700">
      <p className="font-semibold text-slate-900">{outcome.headline}</p>
      <p>{outcome.detail}</p>
      {item.resolution_note && <p className="whitespace-pre-line break-words">Note: {item.resolution_note}</p>}
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex gap-2">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium text-slate-900">{value}</dd>
    </div>
  );
}
