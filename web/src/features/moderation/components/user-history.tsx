import type { ReactNode } from 'react';
import { Link } from 'react-router';

import type { UserRecord } from '@/features/moderation/api/get-user-record';
import { date } from '@/features/moderation/components/labels';
import { formatMoney } from '@/lib/marketplace';

function HistoryList<T extends { id: string }>({ title, items, render }: { title: string; items: T[]; render: (item: T) => ReactNode }) {
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">None.</p>
      ) : (
        <ul aria-label={title} className="mt-1 space-y-1 text-sm text-slate-700">
          {items.map((item) => (
            <li key={item.id} className="break-words">
              {render(item)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const TaskLink = ({ id, title }: { id: string; title: string }) => (
  <Link to={`/task/${id}`} className="font-medium text-brand-700 underline">
    {title}
  </Link>
);

/** A person's tasks, offers, disputes and payments, as an operator reads them (removed text included). */
export function UserHistory({ record }: { record: UserRecord }) {
  return (
    <>
      <HistoryList
        title="Tasks"
        items={record.tasks}
        render={(t) => (
          <>
            {date(t.created_at)} · {t.role === 'poster' ? 'Posted' : 'Assigned'} <TaskLink id={t.id} title={t.title} /> · {t.status} ·{' '}
            {formatMoney(t.budget_cents)}
          </>
        )}
      />
      <HistoryList
        title="Offers"
        items={record.offers}
        render={(o) => (
          <>
            {date(o.created_at)} · {formatMoney(o.amount_cents)} on <TaskLink id={o.task_id} title={o.task_title} /> · {o.status}
            {o.message_removed ? ' · message removed' : ''}: {o.message}
          </>
        )}
      />
      <HistoryList
        title="Disputes"
        items={record.disputes}
        render={(d) => (
          <>
            {date(d.created_at)} · <TaskLink id={d.task_id} title={d.task_title} /> · {d.reason.replace('_', ' ')} ·{' '}
            {d.status === 'open' ? 'open' : `resolved (${(d.outcome ?? '').replace('_', ' ')})`}
            {d.opened_by === record.user.id ? ' · opened by them' : ''}
          </>
        )}
      />
      <HistoryList
        title="Payments"
        items={record.payments}
        render={(p) => (
          <>
            {date(p.created_at)} · {p.role === 'poster' ? 'Paid' : 'Owed'} {formatMoney(p.amount_cents, p.currency, true)} for{' '}
            <TaskLink id={p.task_id} title={p.task_title} /> · {p.status}
            {p.refunded_cents > 0 ? ` · ${formatMoney(p.refunded_cents, p.currency, true)} refunded` : ''}
            {p.transfer_status ? ` · transfer ${p.transfer_status}` : ''}
            {p.transfer_on_hold && <strong className="text-red-800"> · on hold until reinstated</strong>}
          </>
        )}
      />
    </>
  );
}
