import { useId, useState, type InputHTMLAttributes } from 'react';

import { describedBy, FieldShell, inputClasses } from '@/components/ui/field';

type PasswordFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & {
  label: string;
  error?: string;
  hint?: string;
};

/** A password input with a show/hide toggle. */
export function PasswordField({ label, error, hint, id: givenId, className, ...rest }: PasswordFieldProps) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const [visible, setVisible] = useState(false);
  return (
    <FieldShell id={id} label={label} error={error} hint={hint} className={className}>
      <div className="relative">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
          className={inputClasses(Boolean(error), 'pr-16')}
          {...rest}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          className="absolute inset-y-1 right-1 rounded-md px-2.5 text-xs font-semibold text-slate-600 hover:bg-slate-100"
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </FieldShell>
  );
}
