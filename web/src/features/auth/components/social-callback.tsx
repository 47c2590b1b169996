import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { finishSocialSignIn } from '@/features/auth/api/complete-social-sign-in';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

type Outcome = { code: string; redirect: string } | { error: string };

/** Reads what the server's callback put in the fragment, then removes it from the address bar and history. */
function readFragment(): Outcome {
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const error = fragment.get('error');
  const code = fragment.get('code');
  const redirect = fragment.get('redirect') ?? '/';
  if (error) return { error };
  if (!code) return { error: 'This sign-in link is incomplete. Please try again.' };
  return { code, redirect: redirect.startsWith('/') && !redirect.startsWith('//') ? redirect : '/' };
}

/** The page a provider sign-in lands on: redeems the code it carries for a session, or says why not. */
export function SocialCallback() {
  const navigate = useNavigate();
  const [outcome] = useState(readFragment);
  const [failure, setFailure] = useState<string | null>('error' in outcome ? outcome.error : null);

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
    if ('error' in outcome) return;
    finishSocialSignIn(outcome.code)
      .then(() => {
        toast({ title: 'Logged in successfully', description: 'Welcome back to Taskhub!', variant: 'success' });
        navigate(outcome.redirect, { replace: true });
      })
      .catch((error: unknown) => setFailure(errorMessage(error, 'Your sign-in could not be completed. Please try again.')));
  }, [outcome, navigate]);

  if (!failure) {
    return (
      <p role="status" className="text-slate-700">
        Signing you in…
      </p>
    );
  }
  return (
    <div className="space-y-4">
      <Alert title="Sign-in failed">
        <p>{failure}</p>
      </Alert>
      <p className="text-sm text-slate-700">
        <Link to="/login" className="font-semibold text-brand-700 hover:underline">
          Back to sign in
        </Link>
      </p>
    </div>
  );
}
