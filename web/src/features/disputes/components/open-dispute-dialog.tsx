import { useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FieldShell, inputClasses, TextAreaField } from '@/components/ui/field';
import { DISPUTE_REASONS, TASKER_DISPUTE_REASONS } from '@/features/disputes/api/get-dispute';
import { openDisputeSchema, useOpenDispute } from '@/features/disputes/api/open-dispute';
import { ApiError, errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { validate, type FieldErrors } from '@/lib/validation';

type Draft = { reason: string; message: string };
const empty: Draft = { reason: '', message: '' };

/** Either party's dispute form: a reason and what went wrong, with what happens to the money. */
export function OpenDisputeDialog({ open, onClose, taskId, taskerName, viewer = 'poster' }: {
  open: boolean;
  onClose: () => void;
  taskId: string;
  taskerName: string;
  viewer?: 'poster' | 'tasker';
}) {
  const reasons = viewer === 'tasker' ? TASKER_DISPUTE_REASONS : DISPUTE_REASONS;
  const [draft, setDraft] = useState<Draft>(empty);
  const [errors, setErrors] = useState<FieldErrors<keyof Draft>>({});
  const dispute = useOpenDispute(taskId);
  const edit = (key: keyof Draft, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const close = () => {
    if (dispute.isPending) return;
    dispute.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate<keyof Draft>(openDisputeSchema, draft);
    if (Object.keys(found).length) return setErrors(found);
    dispute.mutate(openDisputeSchema.parse(draft), {
      onSuccess: () => {
        toast({ title: 'Dispute opened', description: 'An operator will review it. The payment stays held until then.', variant: 'success' });
        setDraft(empty);
        onClose();
      },
      onError: (error) => {
        if (error instanceof ApiError && Object.keys(error.fields).length) setErrors(error.fields);
      },
    });
  };
  const fieldErrorsShown = dispute.error instanceof ApiError && Object.keys(dispute.error.fields).length > 0;

  return (
    <Dialog open={open} onClose={close} title="Open a dispute">
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="space-y-2 text-sm text-slate-600">
          <p>Tell us what went wrong. Opening a dispute stops the automatic release and any cancellation countdown.</p>
          <p>
            The payment stays held until a Taskhub operator reviews the task and decides: release it to {viewer === 'tasker' ? 'you' : taskerName},
            refund part of it, or refund it in full. You'll both be notified.
          </p>
        </div>
        <FieldShell id="dispute-reason" label="Reason" error={errors.reason}>
          <select
            id="dispute-reason"
            value={draft.reason}
            required
            aria-invalid={errors.reason ? true : undefined}
            aria-describedby={errors.reason ? 'dispute-reason-error' : undefined}
            onChange={(e) => edit('reason', e.target.value)}
            className={inputClasses(Boolean(errors.reason))}
          >
            <option value="">Choose a reason</option>
            {Object.entries(reasons).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </FieldShell>
        <TextAreaField
          label="Describe the problem"
          required
          maxLength={2000}
          value={draft.message}
          onChange={(e) => edit('message', e.target.value)}
          error={errors.message}
          hint="What was agreed, what happened, and what you'd consider fair."
        />
        {dispute.isError && !fieldErrorsShown && <Alert>{errorMessage(dispute.error, 'The dispute could not be opened. Please try again.')}</Alert>}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={close} disabled={dispute.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={dispute.isPending}>
            Open dispute
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
