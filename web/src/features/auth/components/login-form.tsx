import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { PasswordField } from '@/components/ui/password-field';
import { loginInputSchema, useLogin } from '@/features/auth/api/login';
import { uploadPendingAvatar } from '@/features/auth/api/upload-pending-avatar';
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

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = validate<'email' | 'password'>(loginInputSchema, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      const session = await login.mutateAsync(values);
      toast({ title: 'Logged in successfully', description: 'Welcome back to Taskhub!', variant: 'success' });
      navigate(redirectTarget(location.state), { replace: true });
      uploadPendingAvatar(session.user.email).then(
        (uploaded) =>
          uploaded &&
          toast({ title: 'Avatar uploaded', description: 'Your profile picture has been uploaded successfully.', variant: 'success' }),
        (error) =>
          toast({ title: 'Upload failed', description: errorMessage(error, 'Failed to upload profile picture. Please try again.'), variant: 'error' }),
      );
    } catch (error) {
      const message = error instanceof ApiError && error.message ? error.message : 'Please check your credentials and try again.';
      console.warn('Login failed', error);
      if (error instanceof ApiError && Object.keys(error.fields).length) setErrors(error.fields);
      setFailure(
        error instanceof ApiError && error.code === 'email_not_confirmed'
          ? `${message} Open the link in the email we sent you, then sign in.`
          : message,
      );
      toast({ title: 'Login failed', description: message, variant: 'error' });
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {failure && <Alert title="Login failed">{failure}</Alert>}
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
      <SocialButtons />
      <p className="text-center text-sm text-slate-600">
        New to Taskhub?{' '}
        <Link to="/signup" state={location.state} className="font-semibold text-brand-700 hover:underline">
          Create an account
        </Link>
      </p>
    </form>
  );
}
