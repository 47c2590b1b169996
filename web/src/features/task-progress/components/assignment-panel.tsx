import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextField } from '@/components/ui/field';
import { MessagesThread } from '@/features/task-progress/components/messages-thread';
import { ReviewForm } from '@/features/task-progress/components/review-form';
import { useReleasePayment } from '@/features/task-progress/api/release-payment';
import { useRequestPayment } from '@/features/task-progress/api/request-payment';
import { errorMessage } from '@/lib/http';
import type { TaskDetail } from '@/lib/marketplace';
import { toast } from '@/lib/toast';

/**
 * After assignment, for the poster and the assigned tasker: status, private messages, payment, reviews.
 * While a dispute is open the tasker cannot ask to be paid; `completedNote` replaces the default
 * "released" line when a dispute decided otherwise.
 */
export function AssignmentPanel({ task, userId, disputeOpen = false, completedNote }: {
  task: TaskDetail;
  userId: string;
  disputeOpen?: boolean;
  completedNote?: string;
}) {
  const isPoster = task.poster.id === userId;
  const request = useRequestPayment(task.id);
  const release = useReleasePayment(task.id);
  const [confirmingRelease, setConfirmingRelease] = useState(false);
  const [tip, setTip] = useState('');
  const tipCents = Math.round(Number(tip || '0') * 100);
  const completed = task.status === 'completed';
  const other = isPoster ? task.assigned_tasker?.name ?? 'the tasker' : task.poster.name;

  return (
    <section aria-labelledby="assignment-heading" className="space-y-5 rounded-2xl border border-brand-200 bg-white p-6 shadow-sm">
      <div className="flex items-start gap-3">
        <CheckCircle2 aria-hidden className="mt-0.5 h-6 w-6 text-brand-700" />
        <div>
          <h2 id="assignment-heading" className="text-lg font-semibold text-slate-900">
            {completed ? 'Task completed' : isPoster ? `Assigned to ${other}` : 'You got this task'}
          </h2>
          <p className="text-sm text-slate-600">
            {completed
              ? (completedNote ?? 'The payment has been released to the tasker.')
              : task.status === 'completion_requested'
                ? isPoster
                  ? `${other} says the task is done and asked you to release the payment.`
                  : 'You asked the poster to release the payment.'
                : 'The payment is held securely until the poster releases it.'}
          </p>
        </div>
      </div>

      {!completed && (
        <div className="flex flex-wrap gap-2">
          {isPoster ? (
            <Button loading={release.isPending} onClick={() => setConfirmingRelease(true)}>
              Release payment
            </Button>
          ) : (
            <Button
              variant="secondary"
              loading={request.isPending}
              disabled={task.status === 'completion_requested' || disputeOpen}
              onClick={() => request.mutate(undefined, { onSuccess: () => toast({ title: 'Payment requested', description: 'The poster has been notified.', variant: 'success' }) })}
            >
              Request payment
            </Button>
          )}
        </div>
      )}
      {disputeOpen && !completed && (
        <p className="text-sm text-slate-600">
          {isPoster
            ? 'A dispute is open. You can still release the payment if you have sorted things out; that closes the dispute.'
            : 'Payment requests are paused while the dispute is open. An operator will decide.'}
        </p>
      )}
      <ConfirmDialog
        open={confirmingRelease}
        title="Release payment?"
        confirmLabel="Release payment"
        pending={release.isPending}
        error={release.error}
        onClose={() => {
          setConfirmingRelease(false);
          release.reset();
        }}
        onConfirm={() =>
          release.mutate(Number.isFinite(tipCents) && tipCents > 0 ? tipCents : undefined, {
            onSuccess: (released) => {
              setConfirmingRelease(false);
              toast({ title: 'Payment released', description: `${other} will be paid in 3-5 business days.`, variant: 'success' });
              if (released.tip_error) toast({ title: 'Tip not started', description: released.tip_error });
              if (released.tip?.url) window.location.assign(released.tip.url);
            },
          })
        }
      >
        <p>
          Only release the payment once the task is done to your satisfaction. {other} is paid the amount less the 10% service fee, 3-5 business
          days after you release it. This cannot be undone.
        </p>
        <TextField
          label="Add a tip ($)"
          optional
          inputMode="decimal"
          value={tip}
          onChange={(e) => setTip(e.target.value)}
          hint={`Paid to ${other} in full, with no service fee. You pay it on the next page; the release does not wait for it.`}
        />
      </ConfirmDialog>
      {request.isError && <Alert>{errorMessage(request.error, 'Something went wrong. Please try again.')}</Alert>}

      <MessagesThread taskId={task.id} userId={userId} otherId={(isPoster ? task.assigned_tasker?.id : task.poster.id) ?? null} />
      {completed && <ReviewForm taskId={task.id} otherName={other} />}
    </section>
  );
}
