import { CalendarClock } from 'lucide-react';
import { useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { useAnswerReschedule } from '@/features/job-changes/api/answer-reschedule';
import { useReschedules, type Reschedule } from '@/features/job-changes/api/get-reschedules';
import { useProposeReschedule } from '@/features/job-changes/api/propose-reschedule';
import { ApiError, errorMessage } from '@/lib/http';
import type { TaskDetail } from '@/lib/marketplace';
import { toast } from '@/lib/toast';
import { formatRemaining, useCountdown } from '@/lib/use-countdown';

/**
 * Moving an assigned task's date: either party proposes a new date (and a time window), the other
 * accepts or declines within 48 hours; without an answer the date stays as it is.
 */
export function RescheduleCard({ task, userId }: { task: TaskDetail; userId: string }) {
  const proposals = useReschedules(task.id, true);
  const pending = proposals.data?.find((proposal) => proposal.status === 'pending') ?? null;
  const canPropose = task.status === 'assigned' && !pending;
  if (proposals.isPending || proposals.isError || (!pending && !canPropose)) return null;
  return (
    <section aria-labelledby="reschedule-heading" className="space-y-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="reschedule-heading" className="flex items-center gap-2 font-semibold text-slate-900">
        <CalendarClock aria-hidden className="h-5 w-5 text-brand-700" /> Date
      </h2>
      <p className="text-sm text-slate-600">Due {task.due_date}</p>
      {pending ? <PendingProposal task={task} proposal={pending} mine={pending.proposed_by === userId} /> : <ProposeForm taskId={task.id} />}
    </section>
  );
}

function PendingProposal({ task, proposal, mine }: { task: TaskDetail; proposal: Reschedule; mine: boolean }) {
  const answer = useAnswerReschedule(task.id);
  const remaining = useCountdown(Date.parse(proposal.expires_at));
  const left = remaining === null ? null : formatRemaining(remaining);
  const when = proposal.window ? `${proposal.due_date} (${proposal.window})` : proposal.due_date;
  return (
    <div className="space-y-2 rounded-xl border border-sky-200 bg-sky-50 p-4" role="region" aria-label="Date proposal">
      <p className="text-sm font-medium text-slate-900">New date proposed: {when}</p>
      {proposal.note && <p className="text-sm text-slate-700">“{proposal.note}”</p>}
      <p className="text-sm text-slate-600">{left ? `${left} left to answer` : 'The time to answer is up.'}</p>
      {mine ? (
        <p className="text-sm text-slate-700" role="status">
          Waiting for an answer.
        </p>
      ) : (
        <div className="flex gap-2">
          <Button
            loading={answer.isPending && answer.variables?.answer === 'accept'}
            onClick={() =>
              answer.mutate({ id: proposal.id, answer: 'accept' }, { onSuccess: () => toast({ title: 'New date accepted', variant: 'success' }) })
            }
          >
            Accept new date
          </Button>
          <Button
            variant="outline"
            loading={answer.isPending && answer.variables?.answer === 'decline'}
            onClick={() => answer.mutate({ id: proposal.id, answer: 'decline' })}
          >
            Decline
          </Button>
        </div>
      )}
      {answer.isError && <Alert>{errorMessage(answer.error, 'Something went wrong. Please try again.')}</Alert>}
    </div>
  );
}

function ProposeForm({ taskId }: { taskId: string }) {
  const propose = useProposeReschedule(taskId);
  const [proposing, setProposing] = useState(false);
  const [dueDate, setDueDate] = useState('');
  const [window, setWindow] = useState('');
  if (!proposing) {
    return (
      <Button variant="secondary" onClick={() => setProposing(true)}>
        Propose a new date
      </Button>
    );
  }
  const fields = propose.error instanceof ApiError ? propose.error.fields : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    propose.mutate(
      { due_date: dueDate, window: window.trim() || undefined },
      {
        onSuccess: () => {
          toast({ title: 'New date proposed', variant: 'success' });
          setProposing(false);
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <TextField label="New date" type="date" value={dueDate} onChange={(e) => setDueDate(e.target.value)} error={fields.due_date} />
      <TextField label="Time window" optional maxLength={40} value={window} onChange={(e) => setWindow(e.target.value)} error={fields.window} />
      {propose.isError && !fields.due_date && !fields.window && <Alert>{errorMessage(propose.error, 'The proposal could not be sent.')}</Alert>}
      <div className="flex gap-2">
        <Button type="submit" loading={propose.isPending}>
          Send proposal
        </Button>
        <Button variant="outline" onClick={() => setProposing(false)} disabled={propose.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
