import { Scale, ShieldAlert } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { reasonLabel, useDispute, type Dispute } from '@/features/disputes/api/get-dispute';
import { describeOutcome } from '@/features/disputes/components/describe-outcome';
import { OpenDisputeDialog } from '@/features/disputes/components/open-dispute-dialog';
import { formatDate } from '@/lib/format';
import type { TaskDetail } from '@/lib/marketplace';

const ACTIVE = ['assigned', 'completion_requested'];

/**
 * The dispute of an assigned task for its two parties: "Open a dispute" for either of them, then a status
 * card both see (what happens next while open; the outcome with amounts once an operator decided).
 */
export function DisputeSection({ task, userId, amountCents, show = 'both' }: {
  task: TaskDetail;
  userId: string;
  amountCents?: number | null;
  /** The task page puts the status card above the assignment and the poster's "Open a dispute" below it. */
  show?: 'status' | 'actions' | 'both';
}) {
  const isPoster = task.poster.id === userId;
  const dispute = useDispute(task.id, true);
  const [opening, setOpening] = useState(false);
  const taskerName = task.assigned_tasker?.name ?? 'the tasker';
  const otherName = isPoster ? taskerName : task.poster.name;
  if (dispute.isPending || dispute.isError) return null;
  const current = dispute.data;
  const canOpen = ACTIVE.includes(task.status) && current?.status !== 'open';
  const viewer = isPoster ? 'poster' : 'tasker';

  return (
    <>
      {current && show !== 'actions' && <DisputeStatusCard dispute={current} task={task} viewer={viewer} amountCents={amountCents} />}
      {canOpen && show !== 'status' && (
        <section aria-labelledby="dispute-open-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="dispute-open-heading" className="font-semibold text-slate-900">
            Problem with this task?
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Try sorting it out with {otherName} in the messages first. If you can't agree, open a dispute: the payment stays held until a Taskhub
            operator decides.
          </p>
          <Button variant="outline" className="mt-3" onClick={() => setOpening(true)}>
            Open a dispute
          </Button>
          <OpenDisputeDialog open={opening} onClose={() => setOpening(false)} taskId={task.id} taskerName={taskerName} viewer={viewer} />
        </section>
      )}
    </>
  );
}

export function DisputeStatusCard({ dispute, task, viewer, amountCents }: {
  dispute: Dispute;
  task: TaskDetail;
  viewer: 'poster' | 'tasker';
  amountCents?: number | null;
}) {
  const posterName = task.poster.name;
  const taskerName = task.assigned_tasker?.name ?? 'the tasker';
  const open = dispute.status === 'open';
  const openedByPoster = dispute.opened_by === task.poster.id;
  const opener = openedByPoster === (viewer === 'poster') ? 'You' : openedByPoster ? posterName : taskerName;
  const posterAsked = viewer === 'poster' ? 'your' : `${posterName}'s`;

  if (open) {
    return (
      <section aria-labelledby="dispute-heading" className="rounded-2xl border border-amber-300 bg-amber-50 p-5 shadow-sm" data-testid="dispute-card">
        <div className="flex items-start gap-3">
          <ShieldAlert aria-hidden className="mt-0.5 h-6 w-6 shrink-0 text-amber-700" />
          <div className="min-w-0 space-y-2">
            <h2 id="dispute-heading" className="text-lg font-semibold text-slate-900">
              Dispute open
            </h2>
            {dispute.from_cancellation ? (
              <p className="text-sm text-slate-700">
                Nobody answered {posterAsked} request to cancel within 48 hours, and {viewer === 'tasker' ? 'you' : taskerName} had asked to be paid,
                so on {formatDate(dispute.created_at)} it went to a Taskhub operator. The request said:
              </p>
            ) : (
              <p className="text-sm text-slate-700">
                {opener} opened a dispute on {formatDate(dispute.created_at)}: <strong>{reasonLabel(dispute.reason)}</strong>.
              </p>
            )}
            <blockquote className="whitespace-pre-line break-words border-l-4 border-amber-300 pl-3 text-sm text-slate-700">{dispute.message}</blockquote>
            <h3 className="pt-1 text-sm font-semibold text-slate-900">What happens next</h3>
            <p className="text-sm text-slate-700">
              A Taskhub operator will review the task and your messages, then decide whether to release the payment to{' '}
              {viewer === 'tasker' ? 'you' : taskerName}, refund part of it, or refund it in full. Until then the payment stays held: it won't be
              released automatically and the task can't be cancelled.
            </p>
            <p className="text-sm text-slate-700">
              {viewer === 'poster'
                ? `If you sort it out with ${taskerName}, you can still release the payment yourself; that closes the dispute.`
                : `You can still message ${posterName} below. You'll both be notified when the operator decides.`}
            </p>
          </div>
        </div>
      </section>
    );
  }

  const outcome = describeOutcome(dispute, { amountCents, currency: task.currency, posterName, taskerName, viewer });
  return (
    <section aria-labelledby="dispute-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="dispute-card">
      <div className="flex items-start gap-3">
        <Scale aria-hidden className="mt-0.5 h-6 w-6 shrink-0 text-brand-700" />
        <div className="min-w-0 space-y-2">
          <h2 id="dispute-heading" className="text-lg font-semibold text-slate-900">
            Dispute resolved
          </h2>
          <p className="text-base font-semibold text-slate-900" data-testid="dispute-outcome">
            {outcome.headline}
          </p>
          <p className="text-sm text-slate-700">{outcome.detail}</p>
          {dispute.resolution_note && (
            <div className="text-sm text-slate-700">
              <h3 className="font-semibold text-slate-900">Operator's note</h3>
              <p className="mt-1 whitespace-pre-line break-words">{dispute.resolution_note}</p>
            </div>
          )}
          {dispute.resolved_at && <p className="text-xs text-slate-500">Decided on {formatDate(dispute.resolved_at)}</p>}
        </div>
      </div>
    </section>
  );
}
