import { useId, useState } from 'react';
import { Link } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import type { AuthorSummary, QueueItem } from '@/features/moderation/api/get-report-queue';
import { useResolveReport, type ModerationAction } from '@/features/moderation/api/resolve-report';
import { date, dateTime, reasonLabel, TARGET_LABELS } from '@/features/moderation/components/labels';
import { ApiError, errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

const DONE: Record<ModerationAction, string> = {
  dismiss: 'Dismissed',
  remove: 'Removed',
  warn: 'Author warned',
  suspend: 'Author suspended',
};

function targetLink(item: QueueItem): string | null {
  if (item.target.type === 'task') return `/task/${item.target.id}`;
  if (item.target.type === 'user') return `/profile/${item.target.id}`;
  return null;
}

export function ReportCard({ item }: { item: QueueItem }) {
  const headingId = useId();
  const link = targetLink(item);
  const { current } = item.target;
  return (
    <article aria-labelledby={headingId} data-report-id={item.id} className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {TARGET_LABELS[item.target.type]} by {item.author.name}
        </h2>
        <p className="text-sm text-slate-600">
          {item.reporters === 1 ? '1 reporter' : `${item.reporters} reporters`} · {item.reasons.map(reasonLabel).join(', ')}
        </p>
      </div>
      <div>
        <h3 className="text-sm font-medium text-slate-800">When reported ({dateTime(item.created_at)})</h3>
        <blockquote className="mt-1 whitespace-pre-line break-words rounded-lg bg-slate-50 p-3 text-sm text-slate-700">{item.target.snapshot}</blockquote>
        <p className="mt-2 text-sm text-slate-600">
          Now:{' '}
          {current.removed
            ? 'removed by a moderator'
            : current.text === null
              ? 'deleted by its author'
              : current.text === item.target.snapshot
                ? 'unchanged'
                : `edited to “${current.text}”`}
          {link && (
            <>
              {' · '}
              <Link to={link} className="text-brand-700 underline">
                Open it
              </Link>
            </>
          )}
        </p>
      </div>
      <AuthorFacts author={item.author} />
      {item.status === 'open' ? <Decision item={item} /> : <p className="text-sm font-medium text-slate-700">Resolved</p>}
    </article>
  );
}

function AuthorFacts({ author }: { author: AuthorSummary }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
      <Fact label="Author" value={`${author.name} (${author.email})`} />
      <Fact label="Member since" value={date(author.created_at)} />
      <Fact label="Tasks completed" value={String(author.tasks_completed)} />
      <Fact label="Open reports" value={String(author.open_reports)} />
      <Fact label="Earlier actions" value={String(author.actions)} />
      {author.suspended && (
        <Fact label="Suspended" value={author.suspended_until ? `until ${date(author.suspended_until)}` : 'until reinstated'} />
      )}
    </dl>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex gap-2">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words font-medium text-slate-900">{value}</dd>
    </div>
  );
}

/** One-click decisions: each needs a note (the author reads it); a suspension may have a length in days. */
function Decision({ item }: { item: QueueItem }) {
  const resolve = useResolveReport();
  const [note, setNote] = useState('');
  const [days, setDays] = useState('');
  const [noteError, setNoteError] = useState<string>();
  const [daysError, setDaysError] = useState<string>();
  const [done, setDone] = useState<ModerationAction | null>(null);
  const fields = resolve.error instanceof ApiError ? resolve.error.fields : {};

  const act = (action: ModerationAction) => {
    const trimmed = note.trim();
    if (!trimmed) return setNoteError('Write a note first: it goes in the audit log, and the author reads it.');
    let suspendDays: number | null = null;
    if (action === 'suspend' && days.trim()) {
      suspendDays = Number(days);
      if (!Number.isInteger(suspendDays) || suspendDays < 1 || suspendDays > 3650) return setDaysError('Enter 1 to 3650 days, or leave it empty');
    }
    resolve.mutate(
      { reportId: item.id, input: { action, note: trimmed, ...(action === 'suspend' ? { suspend_days: suspendDays } : {}) } },
      {
        onSuccess: () => {
          setDone(action);
          // The card leaves the open queue as it refreshes, so the outcome is also a toast.
          toast({ title: DONE[action], description: `${item.author.name}: the reports on it are resolved.`, variant: 'success' });
        },
      },
    );
  };

  if (done) {
    return (
      <p role="status" className="text-sm font-medium text-emerald-700">
        {DONE[done]}. The reports on it are resolved.
      </p>
    );
  }
  const generalError = resolve.isError && !fields.note && !fields.suspend_days;
  return (
    <div className="space-y-3 border-t border-slate-100 pt-4">
      <TextAreaField
        label="Note"
        hint="Why: the author reads it for a removal, warning or suspension."
        rows={2}
        value={note}
        onChange={(e) => {
          setNote(e.target.value);
          setNoteError(undefined);
        }}
        error={noteError ?? fields.note}
      />
      <TextField
        label="Suspension days"
        optional
        hint="For Suspend; empty suspends until reinstated."
        inputMode="numeric"
        value={days}
        onChange={(e) => {
          setDays(e.target.value);
          setDaysError(undefined);
        }}
        error={daysError ?? fields.suspend_days}
        className="sm:max-w-xs"
      />
      {generalError && <Alert>{errorMessage(resolve.error, 'The decision could not be saved. Please try again.')}</Alert>}
      <div className="flex flex-wrap gap-2" role="group" aria-label="Decision">
        <Button variant="outline" size="sm" disabled={resolve.isPending} onClick={() => act('dismiss')}>
          Dismiss
        </Button>
        {item.target.type !== 'user' && (
          <Button variant="danger" size="sm" disabled={resolve.isPending} onClick={() => act('remove')}>
            Remove
          </Button>
        )}
        <Button variant="outline" size="sm" disabled={resolve.isPending} onClick={() => act('warn')}>
          Warn
        </Button>
        <Button variant="danger" size="sm" disabled={resolve.isPending} onClick={() => act('suspend')}>
          Suspend
        </Button>
      </div>
    </div>
  );
}
