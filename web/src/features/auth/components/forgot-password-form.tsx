import { Mail } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { recoverInputSchema, useRecoverPassword } from '@/features/auth/api/recover-password';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { validate } from '@/lib/validation';

export function ForgotPasswordForm() {
  const recover = useRecoverPassword();
  const { values, errors, setField, setErrors, reset } = useForm({ email: '' });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = validate<'email'>(recoverInputSchema, values);
    setErrors(found);
    if (found.email) return;
    try {
      await recover.mutateAsync(values);
      toast({ title: 'Recovery email sent', description: 'Check your inbox for password reset instructions', variant: 'success' });
      setSentTo(values.email.trim());
    } catch (error) {
      setFailure(errorMessage(error, 'An error occurred. Please try again.'));
      toast({ title: 'Error', description: errorMessage(error, 'Failed to send recovery email'), variant: 'error' });
    }
  };

  if (sentTo) {
    return (
      <div className="space-y-4 text-center">
        <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-100 text-brand-700">
          <Mail aria-hidden="true" className="h-7 w-7" />
        </div>
        <h2 className="text-xl font-semibold text-slate-900">Check your email</h2>
        <p className="text-sm text-slate-600">
          If an account exists for <strong>{sentTo}</strong>, we've sent a link to reset your password. The link
          expires in one hour. Don't forget to check your spam folder.
        </p>
        <Button
          variant="outline"
          className="w-full"
          onClick={() => {
            setSentTo(null);
            reset();
          }}
        >
          Try a different email
        </Button>
        <Link to="/login" className="block text-sm font-semibold text-brand-700 hover:underline">
          Back to sign in
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && <Alert>{failure}</Alert>}
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        value={values.email}
        onChange={(e) => setField('email', e.target.value)}
        error={errors.email}
      />
      <Button type="submit" size="lg" className="w-full" loading={recover.isPending}>
        Send reset link
      </Button>
      <p className="text-center text-sm text-slate-600">
        Remembered it?{' '}
        <Link to="/login" className="font-semibold text-brand-700 hover:underline">
          Sign in
        </Link>
      </p>
    </form>
  );
}
