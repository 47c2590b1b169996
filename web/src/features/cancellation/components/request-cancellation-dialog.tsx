import { useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FieldShell, TextAreaField, inputClasses } from '@/components/ui/field';
import { CANCELLATION_REASONS, cancellationReasonSchema, useRequestCancellation } from '@/features/cancellation/api/request-cancellation';
import { ApiError, errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { validate } from '@/lib/validation';

/** Asks the other party to cancel an assigned task, with a reason they will read. */
export function RequestCancellationDialog({ open, onClose, taskId, otherName, refundNote }: {
  open: boolean;
  onClose: () => void;
  taskId: string;
  otherName: string;
  refundNote: string;
}) {
  const [reason, setReason] = useState('');
  const [reasonCode, setReasonCode] = useState('other');
  const [error, setError] = useState<string | undefined>();
  const send = useRequestCancellation(taskId);
  const close = () => {
    if (send.isPending) return;
    send.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate<'reason'>(cancellationReasonSchema, { reason });
    if (found.reason) return setError(found.reason);
    send.mutate(cancellationReasonSchema.parse({ reason, reason_code: reasonCode }), {
      onSuccess: () => {
        toast({ title: 'Cancellation requested', description: `${otherName} has 48 hours to accept or decline.`, variant: 'success' });
        setReason('');
        onClose();
      },
      onError: (e) => {
        if (e instanceof ApiError && e.fields.reason) setError(e.fields.reason);
      },
    });
  };
  const fieldError = send.error instanceof ApiError && Boolean(send.error.fields.reason);

  return (
    <Dialog open={open} onClose={close} title="Ask to cancel this task">
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="space-y-2 text-sm text-slate-600">
          <p>
            {otherName} will be asked to accept or decline. If they accept, or don't answer within 48 hours, the task is cancelled. {refundNote}
          </p>
          <p>If they decline, the task carries on.</p>
        </div>
        <FieldShell id="cancellation-reason-code" label="Why are you cancelling?">
          <select
            id="cancellation-reason-code"
            className={inputClasses(false)}
            value={reasonCode}
            onChange={(e) => setReasonCode(e.target.value)}
          >
            {CANCELLATION_REASONS.map(([code, label]) => (
              <option key={code} value={code}>
                {label}
              </option>
            ))}
          </select>
        </FieldShell>
        <TextAreaField
          label="Reason for cancelling"
          required
          maxLength={1000}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setError(undefined);
          }}
          error={error}
          hint={`${otherName} will see this.`}
        />
        {send.isError && !fieldError && <Alert>{errorMessage(send.error, 'The request could not be sent. Please try again.')}</Alert>}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={close} disabled={send.isPending}>
            Keep the task
          </Button>
          <Button type="submit" variant="danger" loading={send.isPending}>
            Send request
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
