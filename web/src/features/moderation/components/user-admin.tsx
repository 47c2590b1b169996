import { useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { useReinstateUser } from '@/features/moderation/api/reinstate-user';
import { useUserSearch } from '@/features/moderation/api/search-users';
import { useSuspendUser } from '@/features/moderation/api/suspend-user';
import { useUserRecord, type UserRecord } from '@/features/moderation/api/get-user-record';
import { ACTION_LABELS, date, dateTime, reasonLabel, TARGET_LABELS } from '@/features/moderation/components/labels';
import { UserHistory } from '@/features/moderation/components/user-history';
import { ApiError, errorMessage } from '@/lib/http';

/** Find a person by name or email, read their record, suspend or reinstate them. */
export function UserAdmin() {
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const search = useUserSearch(query);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery(draft.trim());
    setSelected(null);
  };
  return (
    <div className="space-y-4">
      <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <TextField label="Name or email" value={draft} onChange={(e) => setDraft(e.target.value)} className="min-w-0 flex-1" />
        <Button type="submit">Search</Button>
      </form>
      {search.isFetching && <Spinner />}
      {search.isError && <Alert>{errorMessage(search.error, 'The search failed. Please try again.')}</Alert>}
      {search.data && (search.data.items.length === 0 ? (
        <p className="text-sm text-slate-600">Nobody matches “{query}”.</p>
      ) : (
        <ul aria-label="People found" className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {search.data.items.map((person) => (
            <li key={person.id}>
              <button
                type="button"
                aria-pressed={selected === person.id}
                onClick={() => setSelected(person.id)}
                className="flex w-full flex-wrap items-baseline justify-between gap-2 px-4 py-3 text-left hover:bg-slate-50"
              >
                <span className="font-medium text-slate-900">
                  {person.name} <span className="font-normal text-slate-600">{person.email}</span>
                </span>
                <span className="text-xs text-slate-600">
                  {person.suspended ? 'Suspended · ' : ''}
                  {person.open_reports} open reports
                </span>
              </button>
            </li>
          ))}
        </ul>
      ))}
      {selected && <UserRecordPanel userId={selected} />}
    </div>
  );
}

function UserRecordPanel({ userId }: { userId: string }) {
  const record = useUserRecord(userId);
  if (record.isPending) return <Spinner />;
  if (record.isError) return <Alert>{errorMessage(record.error, 'The record could not be loaded.')}</Alert>;
  const { user, reports, actions, suspension_reason } = record.data;
  return (
    <section aria-labelledby="user-record-heading" className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="user-record-heading" className="text-lg font-semibold text-slate-900">
        {user.name}
      </h2>
      <p className="text-sm text-slate-600">
        {user.email} · member since {date(user.created_at)} · {user.tasks_completed} tasks completed · {user.open_reports} open reports
      </p>
      {user.suspended && (
        <Alert tone="info">
          Suspended {user.suspended_until ? `until ${date(user.suspended_until)}` : 'until reinstated'}
          {suspension_reason ? `: ${suspension_reason}` : ''}
        </Alert>
      )}
      <SuspensionControls record={record.data} />
      <UserHistory record={record.data} />
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Reports about them</h3>
        {reports.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">None.</p>
        ) : (
          <ul className="mt-1 space-y-1 text-sm text-slate-700">
            {reports.map((r) => (
              <li key={r.id}>
                {dateTime(r.created_at)} · {TARGET_LABELS[r.target_type]} · {reasonLabel(r.reason)} · {r.status}
                {r.action ? ` (${r.action})` : ''}: <span className="break-words">{r.snapshot}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Actions on them</h3>
        {actions.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">None.</p>
        ) : (
          <ul className="mt-1 space-y-1 text-sm text-slate-700">
            {actions.map((a) => (
              <li key={a.id}>
                {dateTime(a.created_at)} · {ACTION_LABELS[a.action]} by {a.operator.email}: {a.note}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function SuspensionControls({ record }: { record: UserRecord }) {
  const suspend = useSuspendUser();
  const reinstate = useReinstateUser();
  const [reason, setReason] = useState('');
  const [days, setDays] = useState('');
  const [error, setError] = useState<string>();
  const userId = record.user.id;
  const pending = suspend.isPending || reinstate.isPending;
  const failed = suspend.error ?? reinstate.error;
  const fields = failed instanceof ApiError ? failed.fields : {};

  // A hold on a transfer outlives a suspension that ended by itself: Reinstate lifts it too.
  if (record.user.suspended || record.payments.some((p) => p.transfer_on_hold)) {
    return (
      <div className="space-y-2">
        <TextAreaField label="Note" optional rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
        {failed && <Alert>{errorMessage(failed, 'Could not reinstate. Please try again.')}</Alert>}
        <Button loading={pending} onClick={() => reinstate.mutate({ userId, note: reason.trim() }, { onSuccess: () => setReason('') })}>
          Reinstate
        </Button>
      </div>
    );
  }
  const submit = () => {
    if (!reason.trim()) return setError('Give a reason: the person is told it.');
    const n = days.trim() ? Number(days) : null;
    if (n !== null && (!Number.isInteger(n) || n < 1 || n > 3650)) return setError('Enter 1 to 3650 days, or leave it empty');
    suspend.mutate({ userId, input: { reason: reason.trim(), days: n } }, { onSuccess: () => setReason('') });
  };
  return (
    <div className="space-y-2">
      <TextAreaField label="Reason" rows={2} value={reason} onChange={(e) => { setReason(e.target.value); setError(undefined); }} error={error ?? fields.reason} />
      <TextField label="Days" optional hint="Empty suspends until reinstated." inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} error={fields.days} className="sm:max-w-xs" />
      {failed && !fields.reason && !fields.days && <Alert>{errorMessage(failed, 'Could not suspend. Please try again.')}</Alert>}
      <Button variant="danger" loading={pending} onClick={submit}>
        Suspend
      </Button>
    </div>
  );
}
