import { Link, useSearchParams } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { useVerifyEmail } from '@/features/auth/api/verify-email';

export function VerifyEmailStatus() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const verification = useVerifyEmail(token);

  if (!token) {
    return (
      <Alert title="This verification link is incomplete">
        Open the link from your Taskhub welcome email again, or sign in to have a new one sent.
      </Alert>
    );
  }
  if (verification.isPending) return <PageSpinner label="Verifying your email" />;
  if (verification.isError) {
    return (
      <div className="space-y-4">
        <Alert title="We couldn't verify your email">
          {verification.error.message || 'This link is invalid or has already been used.'}
        </Alert>
        <Link to="/login" className={buttonClasses('outline', 'md', 'w-full')}>
          Go to sign in
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-4 text-center">
      <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-emerald-100 text-2xl text-emerald-700" aria-hidden="true">
        ✓
      </div>
      <h2 className="text-xl font-semibold text-slate-900">Email verified</h2>
      <p className="text-sm text-slate-600">
        Thanks{verification.data.user?.email ? `, ${verification.data.user.email}` : ''}. Your Taskhub account is ready.
      </p>
      <Link to="/login" className={buttonClasses('primary', 'lg', 'w-full')}>
        Sign In
      </Link>
    </div>
  );
}
