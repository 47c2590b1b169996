import { useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';

import { Button, buttonClasses } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PageSpinner } from '@/components/ui/spinner';
import { useDispute } from '@/features/disputes/api/get-dispute';
import { MakeOfferPanel } from '@/features/offers/components/make-offer-panel';
import { OffersList } from '@/features/offers/components/offers-list';
import { useTaskPayment } from '@/features/payments/api/get-task-payment';
import { TaskPaymentNotice } from '@/features/payments/components/task-payment-notice';
import { QuestionsSection } from '@/features/questions/components/questions-section';
import { useCancelTask } from '@/features/tasks/api/cancel-task';
import { useTask } from '@/features/tasks/api/get-task';
import { TaskOverview } from '@/features/tasks/components/task-overview';
import { ViewersNote } from '@/features/tasks/components/viewers-note';
import { PosterCard, SafetyTips, SimilarTasks, TaskStats } from '@/features/tasks/components/task-sidebar';
import { fromLocation } from '@/lib/auth/redirect';
import { useAuth } from '@/lib/auth/use-auth';
import { ApiError, errorMessage } from '@/lib/http';
import { acceptsOffers, isUnderway, type Offer } from '@/lib/marketplace';
import { useTopic } from '@/lib/realtime/use-realtime';
import { toast } from '@/lib/toast';
import { usePageTitle } from '@/lib/use-page-title';
import { lazyOnMount, lazyWhenIdle } from '@/lib/when-idle';

// What only a task's two parties see, and the dialogs, load apart from the page: most visitors of a
// task's page (from a shared link or a search) see neither, and these bring zod and the task editor.
const AssignmentPanel = lazyOnMount(() =>
  import('@/features/task-progress/components/assignment-panel').then((module) => module.AssignmentPanel),
);
const CancellationPanel = lazyOnMount(() =>
  import('@/features/cancellation/components/cancellation-panel').then((module) => module.CancellationPanel),
);
const PriceIncreaseCard = lazyOnMount(() =>
  import('@/features/job-changes/components/price-increase-card').then((module) => module.PriceIncreaseCard),
);
const RescheduleCard = lazyOnMount(() => import('@/features/job-changes/components/reschedule-card').then((module) => module.RescheduleCard));
const DisputeSection = lazyOnMount(() => import('@/features/disputes/components/dispute-section').then((module) => module.DisputeSection));
const AcceptPayDialog = lazyWhenIdle(() =>
  import('@/features/payments/components/accept-pay-dialog').then((module) => module.AcceptPayDialog),
);
const EditTaskDialog = lazyWhenIdle(() => import('@/features/post-task/components/edit-task-dialog').then((module) => module.EditTaskDialog));
const ReportDialog = lazyWhenIdle(() => import('@/features/moderation/components/report-dialog').then((module) => module.ReportDialog));

const AFTER_PAYMENT = ['assigned', 'completion_requested', 'completed', 'cancelled'];
const TASK_REMOVED = 'This task was removed';

export function TaskDetailRoute() {
  const { taskId = '' } = useParams();
  const { user } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const task = useTask(taskId);
  const cancel = useCancelTask(taskId);
  const [paying, setPaying] = useState<Offer | null>(null);
  const [reporting, setReporting] = useState(false);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [editing, setEditing] = useState(false);
  const askRef = useRef<HTMLTextAreaElement>(null);
  useTopic(taskId ? `task:${taskId}` : null);
  // A task a moderator removed is 404 "This task was removed" to all but operators; a page open when
  // it happened hears `task.updated` with status `removed` and says the same.
  const removed =
    (task.isError && task.error instanceof ApiError && task.error.message === TASK_REMOVED) ||
    (task.data?.status === 'removed' && !user?.is_operator);
  usePageTitle(removed ? 'Task removed' : (task.data?.title ?? 'Task details'), removed ? undefined : task.data?.description.slice(0, 160));
  // The lifecycle after payment (payment, dispute, cancellation) is only for the task's two parties.
  const loaded = task.data;
  const isParty = Boolean(user && loaded && (loaded.poster.id === user.id || loaded.assigned_tasker?.id === user.id));
  const afterPayment = Boolean(loaded && AFTER_PAYMENT.includes(loaded.status));
  const payment = useTaskPayment(taskId, isParty && loaded?.status !== 'open');
  const dispute = useDispute(taskId, isParty && afterPayment);

  if (task.isPending) return <PageSpinner label="Loading task" />;
  if (task.isError || removed) {
    const missing = task.error instanceof ApiError && task.error.status === 404;
    return (
      <div className="mx-auto max-w-3xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">{removed ? 'Task removed' : missing ? 'Task not found' : 'Error loading task'}</h1>
        <p className="mt-2 text-slate-600">
          {removed
            ? TASK_REMOVED
            : missing
              ? 'This task does not exist or was removed.'
              : errorMessage(task.error, 'Something went wrong while loading this task')}
        </p>
        <Link to="/tasks" className={buttonClasses('primary', 'md', 'mt-6')}>
          Back to tasks
        </Link>
      </div>
    );
  }

  const t = task.data;
  const userId = user?.id ?? null;
  const isPoster = userId === t.poster.id;
  const open = t.status === 'open';
  // A payment the bank has yet to confirm must not be paid twice.
  const payable = acceptsOffers(t.status) && payment.data?.status !== 'processing';
  const disputeOpen = dispute.data?.status === 'open';
  const amountCents = payment.data?.amount_cents ?? t.accepted_offer?.amount_cents ?? null;
  const decided = dispute.data?.status === 'resolved' && dispute.data.outcome !== 'release';

  const ask = () => {
    if (!userId) {
      toast({ title: 'Sign in to ask a question' });
    }
    document.getElementById('questions-heading')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    setTimeout(() => askRef.current?.focus(), 300);
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      {/* One column on phones, ordered so a tasker meets Make an Offer right after the task; two columns from lg. */}
      <div className="flex flex-col gap-6 lg:grid lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="contents lg:block lg:space-y-6">
          {t.status === 'removed' && (
            <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 max-lg:order-1">
              Removed by a moderator: only operators see this task.
            </p>
          )}
          <div className="max-lg:order-1">
            <TaskOverview task={t} onAsk={ask} onReport={() => (user ? setReporting(true) : navigate('/login', { state: fromLocation(location) }))} />
            <div className="mt-3">
              <ViewersNote taskId={t.id} isPoster={isPoster} />
            </div>
          </div>
          {userId && isParty && (
            <div className="space-y-6 max-lg:order-3 empty:hidden">
              {!decided && <TaskPaymentNotice payment={payment.data} taskStatus={t.status} isPoster={isPoster} posterName={t.poster.name} />}
              {afterPayment && <DisputeSection task={t} userId={userId} amountCents={amountCents} show="status" />}
              {isUnderway(t.status) && (
                <AssignmentPanel
                  task={t}
                  userId={userId}
                  disputeOpen={disputeOpen}
                  completedNote={decided ? 'An operator decided the dispute; the outcome is shown above.' : undefined}
                />
              )}
              {isUnderway(t.status) && t.status !== 'completed' && !disputeOpen && (
                <>
                  <PriceIncreaseCard task={t} userId={userId} amountCents={payment.data?.amount_cents ?? amountCents} />
                  <RescheduleCard task={t} userId={userId} />
                </>
              )}
              <CancellationPanel task={t} userId={userId} disputeOpen={disputeOpen} amountCents={amountCents} />
              {afterPayment && <DisputeSection task={t} userId={userId} amountCents={amountCents} show="actions" />}
            </div>
          )}
          <div className="max-lg:order-4">
            <OffersList
              taskId={t.id}
              currency={t.currency}
              userId={userId}
              renderActions={(offer) =>
                isPoster && payable && offer.status === 'pending' ? (
                  <Button size="sm" onClick={() => setPaying(offer)}>
                    Accept &amp; Pay
                  </Button>
                ) : null
              }
            />
          </div>
          <div className="max-lg:order-5">
            <QuestionsSection ref={askRef} taskId={t.id} questions={t.questions ?? []} userId={userId} isPoster={isPoster} />
          </div>
        </div>
        <aside className="contents lg:block lg:space-y-6">
          {!isPoster && (
            <div className="max-lg:order-2">
              <MakeOfferPanel taskId={t.id} currency={t.currency} userId={userId} taskOpen={open} />
            </div>
          )}
          {isPoster && open && (
            <section className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm max-lg:order-6">
              <h2 className="font-semibold text-slate-900">Your task</h2>
              <p className="mt-1 text-sm text-slate-600">Offers arrive here live. Accept one to pay securely and assign the task.</p>
              <div className="mt-3 grid gap-2">
                <Button variant="secondary" className="w-full" onClick={() => setEditing(true)}>
                  Edit task
                </Button>
                <Button variant="outline" className="w-full" loading={cancel.isPending} onClick={() => setConfirmingCancel(true)}>
                  Cancel task
                </Button>
              </div>
            </section>
          )}
          <div className="max-lg:order-7">
            <TaskStats task={t} />
          </div>
          <div className="max-lg:order-8">
            <PosterCard task={t} />
          </div>
          <div className="max-lg:order-9">
            <SafetyTips />
          </div>
        </aside>
      </div>
      <div className="mt-10">
        <SimilarTasks task={t} />
      </div>
      <AcceptPayDialog offer={paying} taskId={t.id} currency={t.currency} onClose={() => setPaying(null)} />
      {isPoster && <EditTaskDialog task={t} open={editing && open} onClose={() => setEditing(false)} />}
      <ConfirmDialog
        open={confirmingCancel}
        title="Cancel this task?"
        confirmLabel="Cancel task"
        cancelLabel="Keep task"
        variant="danger"
        pending={cancel.isPending}
        error={cancel.error}
        onClose={() => {
          setConfirmingCancel(false);
          cancel.reset();
        }}
        onConfirm={() =>
          cancel.mutate(undefined, {
            onSuccess: () => {
              setConfirmingCancel(false);
              toast({ title: 'Task cancelled', variant: 'success' });
            },
          })
        }
      >
        <p>Taskers will no longer be able to make offers, and those who did are told the task was cancelled. This cannot be undone.</p>
      </ConfirmDialog>
      <ReportDialog open={reporting} onClose={() => setReporting(false)} target={{ type: 'task', id: t.id }} />
    </div>
  );
}
