import { TrendingUp } from 'lucide-react';
import { useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { useApprovePriceIncrease } from '@/features/job-changes/api/approve-price-increase';
import { useAskPriceIncrease } from '@/features/job-changes/api/ask-price-increase';
import { useDeclinePriceIncrease } from '@/features/job-changes/api/decline-price-increase';
import { usePriceIncreases, type PriceIncrease } from '@/features/job-changes/api/get-price-increases';
import { ApiError, errorMessage } from '@/lib/http';
import { formatMoney, type TaskDetail } from '@/lib/marketplace';
import { toast } from '@/lib/toast';
import { formatRemaining, useCountdown } from '@/lib/use-countdown';

const FEE_PERCENT = 10;
const feeOf = (cents: number) => Math.floor((cents * FEE_PERCENT + 50) / 100);

/**
 * Price increases of an assigned task: the tasker asks for more with a reason; the poster sees the
 * new total and the fee on the difference, and approves (a checkout of the difference) or declines.
 */
export function PriceIncreaseCard({ task, userId, amountCents }: { task: TaskDetail; userId: string; amountCents?: number | null }) {
  const increases = usePriceIncreases(task.id, true);
  const isPoster = task.poster.id === userId;
  const open = increases.data?.find((increase) => increase.status === 'pending' || increase.status === 'approved') ?? null;
  const paid = (increases.data ?? []).filter((increase) => increase.status === 'paid');
  const paidCents = paid.reduce((sum, increase) => sum + increase.amount_cents, 0);
  const canAsk = !isPoster && task.status === 'assigned' && !open;
  if (increases.isPending || increases.isError) return null;
  if (!open && !paid.length && !canAsk) return null;

  return (
    <section aria-labelledby="price-increase-heading" className="space-y-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="price-increase-heading" className="flex items-center gap-2 font-semibold text-slate-900">
        <TrendingUp aria-hidden className="h-5 w-5 text-brand-700" /> Price
      </h2>
      {paid.map((increase) => (
        <p key={increase.id} className="text-sm text-slate-700">
          Price increase of {formatMoney(increase.amount_cents, task.currency, true)} paid and held with the payment.
        </p>
      ))}
      {open && (
        <OpenIncrease
          task={task}
          increase={open}
          isPoster={isPoster}
          totalBefore={amountCents != null ? amountCents + paidCents : null}
        />
      )}
      {canAsk && <AskIncreaseForm taskId={task.id} currency={task.currency} />}
    </section>
  );
}

function OpenIncrease({ task, increase, isPoster, totalBefore }: {
  task: TaskDetail;
  increase: PriceIncrease;
  isPoster: boolean;
  totalBefore: number | null;
}) {
  const approve = useApprovePriceIncrease(task.id);
  const decline = useDeclinePriceIncrease(task.id);
  const remaining = useCountdown(increase.status === 'pending' ? Date.parse(increase.expires_at) : null);
  const amount = formatMoney(increase.amount_cents, task.currency, true);
  const left = remaining === null ? null : formatRemaining(remaining);
  const error = approve.error ?? decline.error;

  if (!isPoster) {
    return (
      <p className="text-sm text-slate-700" role="status">
        {increase.status === 'approved'
          ? `${task.poster.name} approved your price increase of ${amount} and is paying it.`
          : `Waiting for ${task.poster.name} to approve your price increase of ${amount}${left ? ` (${left} left)` : ''}.`}
      </p>
    );
  }
  return (
    <div className="space-y-3 rounded-xl border border-amber-200 bg-amber-50 p-4" role="region" aria-label="Price increase request">
      <p className="text-sm font-medium text-slate-900">
        {task.assigned_tasker?.name ?? 'Your tasker'} asked for {amount} more: “{increase.reason}”
      </p>
      <ul className="text-sm text-slate-700">
        {totalBefore !== null && <li>New total: {formatMoney(totalBefore + increase.amount_cents, task.currency, true)}</li>}
        <li>
          Service fee on the increase: {formatMoney(feeOf(increase.amount_cents), task.currency, true)} (deducted from the tasker's payout)
        </li>
        {left && <li>{left} left to answer</li>}
      </ul>
      {increase.status === 'approved' ? (
        <p className="text-sm text-slate-700">You approved this increase; its payment is on its way.</p>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button
            loading={approve.isPending}
            onClick={() => approve.mutate(increase.id, { onSuccess: (checkout) => window.location.assign(checkout.url) })}
          >
            Approve &amp; pay {amount}
          </Button>
          <Button
            variant="outline"
            loading={decline.isPending}
            onClick={() =>
              decline.mutate({ id: increase.id }, { onSuccess: () => toast({ title: 'Price increase declined', variant: 'success' }) })
            }
          >
            Decline
          </Button>
        </div>
      )}
      {error && <Alert>{errorMessage(error, 'Something went wrong. Please try again.')}</Alert>}
    </div>
  );
}

function AskIncreaseForm({ taskId, currency }: { taskId: string; currency: string }) {
  const ask = useAskPriceIncrease(taskId);
  const [asking, setAsking] = useState(false);
  const [dollars, setDollars] = useState('');
  const [reason, setReason] = useState('');
  if (!asking) {
    return (
      <Button variant="secondary" onClick={() => setAsking(true)}>
        Increase price
      </Button>
    );
  }
  const fields = ask.error instanceof ApiError ? ask.error.fields : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const cents = Math.round(Number(dollars) * 100);
    ask.mutate(
      { amount_cents: Number.isFinite(cents) ? cents : 0, reason },
      {
        onSuccess: (increase) => {
          toast({ title: 'Price increase sent', description: `Asked for ${formatMoney(increase.amount_cents, currency, true)} more.`, variant: 'success' });
          setAsking(false);
          setDollars('');
          setReason('');
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <TextField
        label="Extra amount ($)"
        inputMode="decimal"
        value={dollars}
        onChange={(e) => setDollars(e.target.value)}
        error={fields.amount_cents}
      />
      <TextAreaField label="Why the price should increase" maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} error={fields.reason} />
      {ask.isError && !fields.amount_cents && !fields.reason && <Alert>{errorMessage(ask.error, 'The request could not be sent.')}</Alert>}
      <div className="flex gap-2">
        <Button type="submit" loading={ask.isPending}>
          Send request
        </Button>
        <Button variant="outline" onClick={() => setAsking(false)} disabled={ask.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
