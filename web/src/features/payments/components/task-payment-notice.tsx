import { Clock, RotateCcw } from 'lucide-react';

import type { TaskPayment } from '@/features/payments/api/get-task-payment';
import { formatMoney } from '@/lib/marketplace';

export const PROCESSING_MESSAGE = "Your payment is processing. We'll assign the task as soon as your bank confirms it.";

/**
 * What the task page says about the money when nothing else does: a payment still processing (the
 * poster, task awaiting payment), or the refund of a task cancelled after it was paid.
 */
export function TaskPaymentNotice({ payment, taskStatus, isPoster, posterName }: {
  payment: TaskPayment | null | undefined;
  taskStatus: string;
  isPoster: boolean;
  posterName: string;
}) {
  if (!payment) return null;
  if (isPoster && taskStatus === 'pending_payment' && payment.status === 'processing') {
    return (
      <section aria-labelledby="payment-notice-heading" className="rounded-2xl border border-sky-200 bg-sky-50 p-5 shadow-sm">
        <div className="flex items-start gap-3">
          <Clock aria-hidden className="mt-0.5 h-6 w-6 shrink-0 text-sky-700" />
          <div>
            <h2 id="payment-notice-heading" className="font-semibold text-slate-900">
              Payment processing
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              {PROCESSING_MESSAGE} Your payment of {formatMoney(payment.amount_cents, payment.currency, true)} is on its way; there's nothing more you
              need to do.
            </p>
          </div>
        </div>
      </section>
    );
  }
  if (taskStatus === 'cancelled' && payment.status === 'refunded') {
    const refunded = payment.refunded_cents || payment.amount_cents;
    return (
      <section aria-labelledby="payment-notice-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <div className="flex items-start gap-3">
          <RotateCcw aria-hidden className="mt-0.5 h-6 w-6 shrink-0 text-brand-700" />
          <div>
            <h2 id="payment-notice-heading" className="font-semibold text-slate-900">
              Task cancelled
            </h2>
            <p className="mt-1 text-sm text-slate-700" data-testid="refund-summary">
              {isPoster
                ? `Your payment of ${formatMoney(refunded, payment.currency, true)} has been refunded. It can take a few business days to appear on your statement.`
                : `The payment of ${formatMoney(refunded, payment.currency, true)} has been refunded to ${posterName}${posterName.endsWith('.') ? '' : '.'}`}
            </p>
          </div>
        </div>
      </section>
    );
  }
  return null;
}
