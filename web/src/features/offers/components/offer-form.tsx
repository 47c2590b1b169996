import { useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { offerInputSchema, type OfferInput } from '@/features/offers/api/offer-input';
import { errorMessage } from '@/lib/http';

/** Amount + message; used to make an offer and to update your own. */
export function OfferForm({ initial, submitLabel, pending, error, onSubmit, onCancel }: {
  initial?: OfferInput;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: OfferInput) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<OfferInput>(initial ?? { amount: '', message: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof OfferInput, string>>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = offerInputSchema.safeParse(values);
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof OfferInput] ??= issue.message;
      setErrors(next);
      return;
    }
    onSubmit(parsed.data);
  };
  const edit = (key: keyof OfferInput, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <TextField
        label="Your offer (AUD)"
        inputMode="decimal"
        name="amount"
        placeholder="e.g. 120"
        value={values.amount}
        onChange={(e) => edit('amount', e.target.value.replace(/[^\d.]/g, ''))}
        error={errors.amount}
        required
      />
      <TextAreaField
        label="Message to the poster"
        name="message"
        placeholder="Why you're a good fit, when you can do it, what's included"
        value={values.message}
        onChange={(e) => edit('message', e.target.value)}
        error={errors.message}
        required
      />
      {Boolean(error) && <Alert>{errorMessage(error, 'Could not send your offer. Please try again.')}</Alert>}
      <div className="flex gap-2">
        <Button type="submit" loading={pending} className="flex-1">
          {pending ? 'Sending…' : submitLabel}
        </Button>
        {onCancel && (
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
