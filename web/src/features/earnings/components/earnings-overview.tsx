import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { ShowOlder } from '@/components/ui/show-older';
import { Spinner } from '@/components/ui/spinner';
import { type EarningLine, type EarningState, useEarnings } from '@/features/earnings/api/get-earnings';
import { PayoutSetupCard } from '@/features/earnings/components/payout-setup-card';
import { formatDate } from '@/lib/format';
import { formatMoney } from '@/lib/marketplace';
import type { PaymentPurpose } from '@/lib/states';

const stateLabels: Record<EarningState, { label: string; tone: string }> = {
  held: { label: 'Held in escrow', tone: 'bg-sky-50 text-sky-800' },
  awaiting_release: { label: 'Awaiting release', tone: 'bg-amber-50 text-amber-800' },
  waiting_for_payout_setup: { label: 'Transfer waiting for your payout setup', tone: 'bg-orange-50 text-orange-800' },
  waiting_for_identity: { label: 'Transfer waiting for your identity check', tone: 'bg-orange-50 text-orange-800' },
  transfer_pending: { label: 'Transfer on its way', tone: 'bg-indigo-50 text-indigo-800' },
  paid_out: { label: 'Paid out', tone: 'bg-emerald-50 text-emerald-800' },
  refunded: { label: 'Refunded to the poster', tone: 'bg-slate-100 text-slate-700' },
};

const ON_HOLD = { label: 'On hold: contact support', tone: 'bg-red-50 text-red-800' };

function lineLabel(line: EarningLine) {
  return line.on_hold ? ON_HOLD : stateLabels[line.state];
}

function lineDate(line: EarningLine) {
  if (line.state === 'paid_out' && line.paid_out_at) return `Paid out ${formatDate(line.paid_out_at)}`;
  if (line.released_at) return `Released ${formatDate(line.released_at)}`;
  return line.held_at ? `Paid into escrow ${formatDate(line.held_at)}` : '';
}

/** Lines beside the task's own payment: a price increase (fee applies) or a tip (no fee). */
const purposeLabels: Record<PaymentPurpose, string | null> = { task: null, increase: 'Price increase', tip: 'Tip' };

/**
 * The tasker's Earnings: payout setup, totals by stage, and one line per task. `identityAction`
 * is the button that starts an identity check, shown while transfers wait for one.
 */
export function EarningsOverview({ navigate, identityAction }: { navigate?: (url: string) => void; identityAction?: ReactNode }) {
  const earnings = useEarnings();
  if (earnings.isPending) {
    return (
      <div role="status" className="flex justify-center py-16">
        <Spinner />
        <span className="sr-only">Loading your earnings</span>
      </div>
    );
  }
  if (earnings.isError) return <Alert>We couldn't load your earnings. Please try again in a moment.</Alert>;
  // Every page carries the totals over all lines; the first one's are the freshest shown.
  const { totals, currency, payout_account, identity_needed } = earnings.data.pages[0];
  const items = earnings.data.pages.flatMap((page) => page.items);
  // Released money not yet transferred can only be waiting for payout setup while there is none.
  const waiting = payout_account !== 'ready' && totals.released_cents > 0;
  const figures = [
    { label: 'Held in escrow', cents: totals.held_cents },
    { label: 'Awaiting release', cents: totals.awaiting_release_cents },
    { label: 'Released', cents: totals.released_cents },
    { label: 'Paid out', cents: totals.paid_out_cents },
    { label: 'Service fees', cents: totals.fees_cents },
  ];
  return (
    <div className="space-y-6">
      {waiting && (
        <Alert tone="info" title="A transfer is waiting for your payout setup">
          Finish setting up payouts and your released earnings go out straight away.
        </Alert>
      )}
      {identity_needed && (
        <Alert tone="info" title="Verify your identity to get paid">
          <p>Taskhub checks every tasker's identity before their first payout. It takes a few minutes with a photo ID.</p>
          {identityAction && <div className="mt-3">{identityAction}</div>}
        </Alert>
      )}
      <PayoutSetupCard status={payout_account} navigate={navigate} />
      <section aria-labelledby="earnings-totals-heading">
        <h2 id="earnings-totals-heading" className="sr-only">
          Totals
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          {figures.map((figure) => (
            <div key={figure.label} className="rounded-xl border border-slate-200 bg-white p-4">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{figure.label}</dt>
              <dd className="mt-1 text-xl font-bold text-slate-900">{formatMoney(figure.cents, currency, true)}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-xs text-slate-500">Amounts are what you receive, after the 10% service fee.</p>
      </section>
      <section aria-labelledby="earnings-tasks-heading">
        <h2 id="earnings-tasks-heading" className="text-lg font-semibold text-slate-900">
          By task
        </h2>
        {items.length === 0 ? (
          <p className="mt-3 rounded-xl bg-slate-50 p-6 text-center text-sm text-slate-600">
            No earnings yet. When a poster accepts your offer and pays, the payment shows here.{' '}
            <Link to="/tasks" className="font-medium text-brand-700 underline">
              Browse tasks
            </Link>
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
            {items.map((line) => (
              <li key={line.payment_id} className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <Link to={`/task/${line.task_id}`} className="font-medium text-slate-900 hover:underline">
                    {line.task_title}
                  </Link>
                  {purposeLabels[line.purpose] && <span className="ml-2 text-xs font-medium text-brand-700">{purposeLabels[line.purpose]}</span>}
                  <p className="text-xs text-slate-500">
                    {formatMoney(line.amount_cents, line.currency, true)} paid · {formatMoney(line.fee_cents, line.currency, true)} fee ·{' '}
                    {lineDate(line)}
                  </p>
                </div>
                <div className="flex items-center gap-3 sm:flex-col sm:items-end sm:gap-1">
                  <span className="text-base font-semibold text-slate-900">{formatMoney(line.payout_cents, line.currency, true)}</span>
                  <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${lineLabel(line).tone}`}>
                    {lineLabel(line).label}
                  </span>
                  {line.on_hold && (
                    <Link to="/contact" className="text-xs font-medium text-brand-700 underline">
                      Contact support
                    </Link>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
        <ShowOlder query={earnings} what="earnings" className="mt-4" />
      </section>
    </div>
  );
}
