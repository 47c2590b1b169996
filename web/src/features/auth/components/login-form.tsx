import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { PasswordField } from '@/components/ui/password-field';
import { loginInputSchema, useLogin } from '@/features/auth/api/login';
import { useResendVerification } from '@/features/auth/api/resend-verification';
import { SocialButtons } from '@/features/auth/components/social-buttons';
import { redirectTarget } from '@/lib/auth/redirect';
import { ApiError, errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { validate } from '@/lib/validation';

export function LoginForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const login = useLogin();
  const { values, errors, setField, setErrors } = useForm({ email: '', password: '' });
  const [failure, setFailure] = useState<string | null>(null);
  const [unverified, setUnverified] = useState(false);
  const resend = useResendVerification();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setUnverified(false);
    const found = validate<'email' | 'password'>(loginInputSchema, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      await login.mutateAsync(values);
      toast({ title: 'Logged in successfully', description: 'Welcome back to Taskhub!', variant: 'success' });
      navigate(redirectTarget(location.state), { replace: true });
    } catch (error) {
      const message = error instanceof ApiError && error.message ? error.message : 'Please check your credentials and try again.';
      console.warn('Login failed', error);
      if (error instanceof ApiError && Object.keys(error.fields).length) setErrors(error.fields);
      const notConfirmed = error instanceof ApiError && error.code === 'email_not_confirmed';
      setUnverified(notConfirmed);
      setFailure(notConfirmed ? `${message} Open the link in the email we sent you, then sign in.` : message);
      toast({ title: 'Login failed', description: message, variant: 'error' });
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && (
        <Alert title="Login failed">
          <p>{failure}</p>
          {unverified && (
            <button
              type="button"
              className="mt-2 font-semibold underline"
              disabled={resend.isPending}
              onClick={async () => {
                try {
                  await resend.mutateAsync(values.email);
                  toast({ title: 'Verification email sent', description: `Check ${values.email.trim()} for a new link.`, variant: 'success' });
                } catch (cause) {
                  toast({ title: 'Error', description: errorMessage(cause, 'Something went wrong. Please try again.'), variant: 'error' });
                }
              }}
            >
              Resend verification email
            </button>
          )}
        </Alert>
      )}
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        value={values.email}
        onChange={(e) => setField('email', e.target.value)}
        error={errors.email}
      />
      <PasswordField
        label="Password"
        autoComplete="current-password"
        value={values.password}
        onChange={(e) => setField('password', e.target.value)}
        error={errors.password}
      />
      <div className="flex justify-end">
        <Link to="/forgot-password" className="text-sm font-medium text-brand-700 hover:underline">
          Forgot password?
        </Link>
      </div>
      <Button type="submit" size="lg" className="w-full" loading={login.isPending}>
        Sign In
      </Button>
      <SocialButtons redirect={redirectTarget(location.state)} />
      <p className="text-center text-sm text-slate-600">
        New to Taskhub?{' '}
        <Link to="/signup" state={location.state} className="font-semibold text-brand-700 hover:underline">
          Create an account
        </Link>
      </p>
    </form>
  );
}
