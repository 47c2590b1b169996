import { Navigate, useLocation } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { PageSpinner } from '@/components/ui/spinner';
import { AuthCard } from '@/features/auth/components/auth-card';
import { LoginForm } from '@/features/auth/components/login-form';
import { redirectTarget } from '@/lib/auth/redirect';
import { useAuth } from '@/lib/auth/use-auth';

export function LoginRoute() {
  const { session, loading } = useAuth();
  const location = useLocation();
  if (loading) return <PageSpinner />;
  if (session) return <Navigate to={redirectTarget(location.state)} replace />;
  const signedUpEmail = (location.state as { signedUpEmail?: string } | null)?.signedUpEmail;
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to post tasks, make offers and manage your account.">
      {signedUpEmail && (
        <Alert tone="info" title="Check your inbox" className="mb-4">
          We sent a verification link to {signedUpEmail}. Open it, then sign in here.
        </Alert>
      )}
      <LoginForm />
    </AuthCard>
  );
}
