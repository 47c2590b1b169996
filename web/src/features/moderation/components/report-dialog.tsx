import { useState, type FormEvent } from 'react';

import type { ReportTarget } from '@/components/moderation/report-action';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { TextAreaField } from '@/components/ui/field';
import { REPORT_REASONS, useCreateReport, type ReportReason } from '@/features/moderation/api/create-report';
import { ApiError } from '@/lib/http';

export const NOUNS: Record<ReportTarget['type'], string> = {
  task: 'task',
  user: 'profile',
  offer: 'offer',
  question: 'question',
  message: 'message',
  review: 'review',
};

function reportError(error: unknown): string {
  if (error instanceof ApiError && error.status === 404) return 'This is no longer available to report: it may have been deleted.';
  if (error instanceof ApiError && error.status === 429) return "You've sent a lot of reports in the last hour. Please try again later.";
  if (error instanceof ApiError && error.status === 401) return 'Please sign in again to send a report.';
  if (error instanceof Error && error.message) return error.message;
  return 'Your report could not be sent. Please try again.';
}

/** Tells an operator what is wrong with one item: a reason from the list and, optionally, details. */
export function ReportDialog({ open, onClose, target }: { open: boolean; onClose: () => void; target: ReportTarget }) {
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [missingReason, setMissingReason] = useState(false);
  const report = useCreateReport();
  const noun = NOUNS[target.type];

  const close = () => {
    setReason('');
    setDetails('');
    setMissingReason(false);
    report.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) return setMissingReason(true);
    const trimmed = details.trim();
    report.mutate({ target, reason, details: trimmed ? trimmed : null });
  };

  return (
    <Dialog open={open} onClose={close} title={`Report this ${noun}`}>
      {report.isSuccess ? (
        <div className="space-y-4">
          <p role="status" className="text-slate-700">
            Thanks for telling us. A Taskhub moderator will review this {noun}, and we'll let you know once it has been handled.
          </p>
          <div className="flex justify-end">
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <fieldset aria-describedby={missingReason ? 'report-reason-error' : undefined}>
            <legend className="text-sm font-medium text-slate-900">Why are you reporting it?</legend>
            <div className="mt-2 space-y-2">
              {REPORT_REASONS.map((r) => (
                <label key={r.value} className="flex items-center gap-2 text-sm text-slate-700">
                  <input
                    type="radio"
                    name="report-reason"
                    value={r.value}
                    checked={reason === r.value}
                    onChange={() => {
                      setReason(r.value);
                      setMissingReason(false);
                    }}
                  />
                  {r.label}
                </label>
              ))}
            </div>
            {missingReason && (
              <p id="report-reason-error" className="mt-1 text-sm text-red-600">
                Please choose a reason
              </p>
            )}
          </fieldset>
          <TextAreaField label="Details" optional maxLength={1000} value={details} onChange={(e) => setDetails(e.target.value)} />
          {report.isError && <Alert>{reportError(report.error)}</Alert>}
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={report.isPending}>
              Send report
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
