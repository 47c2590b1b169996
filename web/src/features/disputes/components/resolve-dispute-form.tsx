import { useId, useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import type { DisputeCase } from '@/features/disputes/api/get-admin-disputes';
import { resolveDisputeSchema, useResolveDispute, type ResolveDisputeDraft } from '@/features/disputes/api/resolve-dispute';
import { ApiError, errorMessage } from '@/lib/http';
import { formatMoney } from '@/lib/marketplace';
import { toast } from '@/lib/toast';
import { validate, type FieldErrors } from '@/lib/validation';

type Key = keyof ResolveDisputeDraft;
const empty: ResolveDisputeDraft = { outcome: '', refund: '', note: '' };

/** An operator's decision on one open dispute: outcome, a refund in dollars for a partial refund, and a note. */
export function ResolveDisputeForm({ item }: { item: DisputeCase }) {
  const id = useId();
  const [draft, setDraft] = useState<ResolveDisputeDraft>(empty);
  const [errors, setErrors] = useState<FieldErrors<Key>>({});
  const resolve = useResolveDispute(item.id, item.task.id);
  const { amount_cents: amount, currency } = item.payment;
  const schema = resolveDisputeSchema(amount, currency);
  const edit = (key: Key, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate<Key>(schema, draft);
    if (Object.keys(found).length) return setErrors(found);
    resolve.mutate(schema.parse(draft), {
      onSuccess: () => toast({ title: 'Dispute resolved', description: `${item.poster.name} and ${item.tasker.name} have been notified.`, variant: 'success' }),
      onError: (error) => {
        if (error instanceof ApiError && Object.keys(error.fields).length) {
          const { refund_cents: refund, ...rest } = error.fields;
          setErrors({ ...rest, ...(refund ? { refund } : {}) });
        }
      },
    });
  };
  const options = [
    { value: 'release', label: `Release the payment to ${item.tasker.name}` },
    { value: 'partial_refund', label: `Refund part of it to ${item.poster.name}` },
    { value: 'refund', label: `Refund it in full to ${item.poster.name} (${formatMoney(amount, currency, true)})` },
  ];

  return (
    <form onSubmit={submit} noValidate className="space-y-4 rounded-xl border border-slate-200 bg-slate-50 p-4" aria-label={`Resolve the dispute on ${item.task.title}`}>
      <fieldset aria-describedby={errors.outcome ? `${id}-outcome-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">Decision</legend>
        <div className="mt-2 space-y-2">
          {options.map((option) => (
            <label key={option.value} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={`${id}-outcome`}
                value={option.value}
                checked={draft.outcome === option.value}
                onChange={() => edit('outcome', option.value)}
                className="h-4 w-4 accent-brand-700"
              />
              {option.label}
            </label>
          ))}
        </div>
        {errors.outcome && (
          <p id={`${id}-outcome-error`} className="mt-1 text-sm text-red-600">
            {errors.outcome}
          </p>
        )}
      </fieldset>
      {draft.outcome === 'partial_refund' && (
        <TextField
          label={`Refund amount (${currency.toUpperCase()})`}
          inputMode="decimal"
          required
          value={draft.refund}
          onChange={(e) => edit('refund', e.target.value)}
          error={errors.refund}
          hint={`In dollars, less than the ${formatMoney(amount, currency, true)} paid. ${item.tasker.name} gets the rest minus the 10% service fee.`}
        />
      )}
      <TextAreaField
        label="Note to both parties"
        required
        maxLength={2000}
        value={draft.note}
        onChange={(e) => edit('note', e.target.value)}
        error={errors.note}
        hint="Explain the decision; the poster and the tasker both see it."
      />
      {resolve.isError && !(resolve.error instanceof ApiError && Object.keys(resolve.error.fields).length) && (
        <Alert>{errorMessage(resolve.error, 'The dispute could not be resolved. Please try again.')}</Alert>
      )}
      <div className="flex justify-end">
        <Button type="submit" loading={resolve.isPending}>
          Resolve dispute
        </Button>
      </div>
    </form>
  );
}
