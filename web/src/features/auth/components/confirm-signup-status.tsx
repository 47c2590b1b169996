import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { confirmSocialSignup } from '@/features/auth/api/complete-social-sign-in';
import type { Session } from '@/lib/auth/types';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

/** One confirmation per mailed token, even if the page renders twice: the token works once. */
const confirmations = new Map<string, Promise<Session>>();

/** The mailed link of a social sign-up whose address the provider did not verify. */
export function ConfirmSignupStatus() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!token) return;
    let confirmation = confirmations.get(token);
    if (!confirmation) {
      confirmation = confirmSocialSignup(token);
      confirmations.set(token, confirmation);
    }
    let current = true;
    confirmation.then(
      (session) => {
        if (!current) return;
        toast({ title: 'Account created successfully', description: 'Welcome to Taskhub!', variant: 'success' });
        navigate(session.profile?.is_tasker ? '/tasks' : '/', { replace: true });
      },
      (error: unknown) => current && setFailure(errorMessage(error, 'This link is invalid or has already been used.')),
    );
    return () => {
      current = false;
    };
  }, [token, navigate]);

  if (!token || failure) {
    return (
      <div className="space-y-4">
        <Alert title="We couldn't finish your sign-up">
          {failure ?? 'This confirmation link is incomplete. Open the link from your email again.'}
        </Alert>
        <Link to="/login" className={buttonClasses('outline', 'md', 'w-full')}>
          Go to sign in
        </Link>
      </div>
    );
  }
  return <PageSpinner label="Confirming your email" />;
}
