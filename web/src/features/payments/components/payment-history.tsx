import { Link } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { ShowOlder } from '@/components/ui/show-older';
import { Spinner } from '@/components/ui/spinner';
import { type Receipt, useMyPayments } from '@/features/payments/api/get-my-payments';
import { formatDate } from '@/lib/format';
import { formatMoney } from '@/lib/marketplace';

function describe(receipt: Receipt): { label: string; tone: string } {
  switch (receipt.status) {
    case 'processing':
      return { label: 'Processing', tone: 'bg-amber-50 text-amber-800' };
    case 'held':
      return { label: 'Held in escrow', tone: 'bg-sky-50 text-sky-800' };
    case 'released':
      return receipt.refunded_cents > 0
        ? { label: 'Partly refunded', tone: 'bg-violet-50 text-violet-800' }
        : { label: 'Released to the tasker', tone: 'bg-emerald-50 text-emerald-800' };
    case 'refunded':
      return { label: 'Refunded', tone: 'bg-slate-100 text-slate-700' };
    default:
      return { label: receipt.status, tone: 'bg-slate-100 text-slate-700' };
  }
}

/** The poster's receipts: one per task paid for, with the fee and any refund. */
export function PaymentHistory() {
  const payments = useMyPayments();
  if (payments.isPending) {
    return (
      <div role="status" className="flex justify-center py-16">
        <Spinner />
        <span className="sr-only">Loading your payments</span>
      </div>
    );
  }
  if (payments.isError) return <Alert>We couldn't load your payments. Please try again in a moment.</Alert>;
  const receipts = payments.data.pages.flatMap((page) => page.items);
  if (receipts.length === 0) {
    return (
      <p className="rounded-xl bg-slate-50 p-6 text-center text-sm text-slate-600">
        No payments yet. When you accept an offer and pay, the receipt shows here.
      </p>
    );
  }
  return (
    <div className="space-y-4">
      <ul className="space-y-3">
        {receipts.map((receipt) => {
          const status = describe(receipt);
          return (
            <li key={receipt.payment_id} className="rounded-xl border border-slate-200 bg-white p-4">
              <article aria-label={`Receipt for ${receipt.task_title}`}>
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <Link to={`/task/${receipt.task_id}`} className="font-medium text-slate-900 hover:underline">
                    {receipt.task_title}
                  </Link>
                  <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${status.tone}`}>{status.label}</span>
                </div>
                <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
                  <div>
                    <dt className="text-slate-500">Paid</dt>
                    <dd className="font-semibold text-slate-900">{formatMoney(receipt.amount_cents, receipt.currency, true)}</dd>
                  </div>
                  <div>
                    <dt className="text-slate-500">Service fee (in the amount)</dt>
                    <dd className="text-slate-900">{formatMoney(receipt.fee_cents, receipt.currency, true)}</dd>
                  </div>
                  <div>
                    <dt className="text-slate-500">Refunded</dt>
                    <dd className="text-slate-900">{formatMoney(receipt.refunded_cents, receipt.currency, true)}</dd>
                  </div>
                  <div>
                    <dt className="text-slate-500">Date</dt>
                    <dd className="text-slate-900">{formatDate(receipt.paid_at)}</dd>
                  </div>
                </dl>
              </article>
            </li>
          );
        })}
      </ul>
      <ShowOlder query={payments} what="payments" />
    </div>
  );
}
