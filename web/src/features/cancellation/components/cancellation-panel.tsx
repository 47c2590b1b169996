import { CalendarX2 } from 'lucide-react';
import { useState } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useAcceptCancellation } from '@/features/cancellation/api/accept-cancellation';
import { useDeclineCancellation } from '@/features/cancellation/api/decline-cancellation';
import { CANCELLATION_ANSWER_WINDOW_MS, useCancellation } from '@/features/cancellation/api/get-cancellation';
import { RequestCancellationDialog } from '@/features/cancellation/components/request-cancellation-dialog';
import { formatRemaining, useCountdown } from '@/lib/use-countdown';
import { errorMessage } from '@/lib/http';
import { formatMoney, type TaskDetail } from '@/lib/marketplace';
import { toast } from '@/lib/toast';

const ACTIVE = ['assigned', 'completion_requested'];

/**
 * Cancelling an assigned task (either party asks with a reason; the other accepts or declines; silence
 * for 48 hours counts as acceptance, except that a poster's request after the tasker asked to be paid
 * goes to an operator instead), with what happens to the held payment spelled out. A poster asks once.
 */
export function CancellationPanel({ task, userId, disputeOpen = false, amountCents }: {
  task: TaskDetail;
  userId: string;
  disputeOpen?: boolean;
  amountCents?: number | null;
}) {
  const active = ACTIVE.includes(task.status);
  const pending = useCancellation(task.id, active);
  const accept = useAcceptCancellation(task.id);
  const decline = useDeclineCancellation(task.id);
  const [asking, setAsking] = useState(false);
  const request = pending.data ?? null;
  const deadline = request ? Date.parse(request.created_at) + CANCELLATION_ANSWER_WINDOW_MS : null;
  const remaining = useCountdown(disputeOpen ? null : deadline);
  if (!active || pending.isPending || pending.isError) return null;

  const isPoster = task.poster.id === userId;
  const posterName = task.poster.name;
  const other = isPoster ? (task.assigned_tasker?.name ?? 'the tasker') : posterName;
  const paid = amountCents ? ` of ${formatMoney(amountCents, task.currency, true)}` : '';
  const refund = isPoster
    ? `Your payment${paid} is then refunded in full.`
    : `${posterName} is then refunded in full and you won't be paid for this task.`;

  const paymentRequested = task.status === 'completion_requested';

  if (!request) {
    const askNote = isPoster
      ? paymentRequested
        ? `Ask ${other} to cancel. If they accept, the task is cancelled. ${refund} As ${other} has asked to be paid, no answer within 48 hours sends it to a Taskhub operator instead. You can ask once.`
        : `Ask ${other} to cancel. If they accept, or don't answer within 48 hours, the task is cancelled. ${refund} If ${other} asks to be paid first, a Taskhub operator decides instead. You can ask once.`
      : `Ask ${other} to cancel. If they accept, or don't answer within 48 hours, the task is cancelled. ${refund}`;
    return (
      <section aria-labelledby="cancellation-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="cancellation-heading" className="font-semibold text-slate-900">
          Need to cancel?
        </h2>
        {disputeOpen ? (
          <p className="mt-1 text-sm text-slate-600">Cancelling isn't possible while a dispute is open; an operator will decide.</p>
        ) : (
          <>
            <p className="mt-1 text-sm text-slate-600">{askNote}</p>
            <Button variant="outline" className="mt-3" onClick={() => setAsking(true)}>
              Ask to cancel
            </Button>
            <RequestCancellationDialog open={asking} onClose={() => setAsking(false)} taskId={task.id} otherName={other} refundNote={refund} />
          </>
        )}
      </section>
    );
  }

  const mine = request.requested_by === userId;
  const left = remaining === null ? null : formatRemaining(remaining);
  const toOperator = paymentRequested && request.requested_by === task.poster.id;
  const clock = disputeOpen
    ? 'The 48-hour countdown is paused while the dispute is open.'
    : toOperator
      ? left
        ? `Goes to a Taskhub operator in ${left} unless answered.`
        : 'No answer within 48 hours: a Taskhub operator will decide.'
      : left
        ? `Cancels automatically in ${left} unless declined.`
        : 'No answer within 48 hours: the task is being cancelled.';
  const busy = accept.isPending || decline.isPending;

  return (
    <section aria-labelledby="cancellation-heading" className="rounded-2xl border border-amber-300 bg-amber-50 p-5 shadow-sm" data-testid="cancellation-request">
      <div className="flex items-start gap-3">
        <CalendarX2 aria-hidden className="mt-0.5 h-6 w-6 shrink-0 text-amber-700" />
        <div className="min-w-0 space-y-2">
          <h2 id="cancellation-heading" className="text-lg font-semibold text-slate-900">
            {mine ? 'You asked to cancel' : `${other} asked to cancel`}
          </h2>
          <blockquote className="whitespace-pre-line break-words border-l-4 border-amber-300 pl-3 text-sm text-slate-700">{request.reason}</blockquote>
          <p className="text-sm font-medium text-slate-900" data-testid="cancellation-countdown">
            {clock}
          </p>
          <p className="text-sm text-slate-700">
            {mine
              ? `Waiting for ${other} to answer. If the task is cancelled, ${isPoster ? `your payment${paid} is refunded in full` : `${posterName} is refunded in full`}.`
              : `If you accept, the task is cancelled. ${refund} If you decline, the task carries on.`}
          </p>
          {!mine && (
            <div className="flex flex-wrap gap-2 pt-1">
              <Button
                variant="danger"
                loading={accept.isPending}
                disabled={busy}
                onClick={() =>
                  accept.mutate(undefined, {
                    onSuccess: () =>
                      toast({
                        title: 'Task cancelled',
                        description: isPoster ? 'Your payment is being refunded.' : `${posterName} is being refunded.`,
                        variant: 'success',
                      }),
                  })
                }
              >
                Accept cancellation
              </Button>
              <Button
                variant="outline"
                loading={decline.isPending}
                disabled={busy}
                onClick={() => decline.mutate(undefined, { onSuccess: () => toast({ title: 'Cancellation declined', description: 'The task carries on.' }) })}
              >
                Decline
              </Button>
            </div>
          )}
          {(accept.isError || decline.isError) && <Alert>{errorMessage(accept.error ?? decline.error, 'Something went wrong. Please try again.')}</Alert>}
        </div>
      </div>
    </section>
  );
}
