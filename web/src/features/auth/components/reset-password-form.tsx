import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { Button, buttonClasses } from '@/components/ui/button';
import { PasswordField } from '@/components/ui/password-field';
import { resetInputSchema, useResetPassword } from '@/features/auth/api/reset-password';
import { ApiError, errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { validate } from '@/lib/validation';

function invalidLink(navigate: ReturnType<typeof useNavigate>) {
  toast({ title: 'Invalid or expired link', description: 'Please try requesting a new password reset link.', variant: 'error' });
  navigate('/forgot-password', { replace: true });
}

export function ResetPasswordForm() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const reset = useResetPassword();
  const { values, errors, setField, setErrors } = useForm({ password: '', confirm_password: '' });
  const [done, setDone] = useState(false);
  const warned = useRef(false);

  useEffect(() => {
    if (!token && !warned.current) {
      warned.current = true;
      invalidLink(navigate);
    }
  }, [token, navigate]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate<'password' | 'confirm_password'>(resetInputSchema, values);
    setErrors(found);
    if (Object.keys(found).length || !token) return;
    try {
      await reset.mutateAsync({ token, password: values.password });
      toast({ title: 'Password updated', description: 'Your password has been successfully reset', variant: 'success' });
      setDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        invalidLink(navigate);
        return;
      }
      if (error instanceof ApiError && Object.keys(error.fields).length) setErrors(error.fields);
      toast({ title: 'Error', description: errorMessage(error, 'Failed to reset password'), variant: 'error' });
    }
  };

  if (done) {
    return (
      <div className="space-y-4 text-center">
        <h2 className="text-xl font-semibold text-slate-900">Your password has been reset</h2>
        <p className="text-sm text-slate-600">You can now sign in with your new password.</p>
        <Link to="/login" className={buttonClasses('primary', 'lg', 'w-full')}>
          Sign In
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <PasswordField
        label="New password"
        autoComplete="new-password"
        hint="At least 6 characters."
        value={values.password}
        onChange={(e) => setField('password', e.target.value)}
        error={errors.password}
      />
      <PasswordField
        label="Confirm new password"
        autoComplete="new-password"
        value={values.confirm_password}
        onChange={(e) => setField('confirm_password', e.target.value)}
        error={errors.confirm_password}
      />
      <Button type="submit" size="lg" className="w-full" loading={reset.isPending} disabled={!token}>
        Reset password
      </Button>
    </form>
  );
}
