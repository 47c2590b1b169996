import { BadgeCheck } from 'lucide-react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useVerification } from '@/features/verification/api/get-verification';
import { useStartIdentityVerification } from '@/features/verification/api/start-identity-verification';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';

/** The button that starts an identity check (settings, and Earnings while a payout waits for one). */
export function StartIdentityButton({ label = 'Verify your identity', navigate }: { label?: string; navigate?: (url: string) => void }) {
  const start = useStartIdentityVerification(navigate);
  return (
    <div className="space-y-2">
      {start.isError && <Alert>{errorMessage(start.error, 'The identity check could not be started. Please try again.')}</Alert>}
      <Button size="sm" loading={start.isPending} onClick={() => start.mutate()}>
        {label}
      </Button>
    </div>
  );
}

/** Where the signed-in person's identity check stands, and the way to start one. */
export function IdentityVerification({ navigate }: { navigate?: (url: string) => void }) {
  const verification = useVerification();
  if (verification.isPending) return <Spinner />;
  if (verification.isError) return <Alert>We couldn't load your verification. Please try again in a moment.</Alert>;
  const status = verification.data;
  if (status.identity) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-700">
        <BadgeCheck aria-hidden className="h-5 w-5 text-emerald-700" />
        <span>
          <span className="font-medium text-emerald-800">Identity verified</span>
          {status.identity_verified_at && ` on ${formatDate(status.identity_verified_at)}`}
        </span>
      </p>
    );
  }
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        Check your identity with a photo ID and a selfie. Posters see an ID-verified badge on your offers
        {status.identity_required_for_payouts ? ', and taskers need it before their first payout' : ''}. Taskhub keeps only the
        outcome, never your document.
      </p>
      {status.identity_pending && <Alert tone="info">Your identity check isn't finished yet. Continue when you're ready.</Alert>}
      {status.identity_failed && !status.identity_pending && (
        <Alert>Your last identity check did not pass. You can try again.</Alert>
      )}
      <StartIdentityButton label={status.identity_pending ? 'Continue identity check' : 'Verify your identity'} navigate={navigate} />
    </div>
  );
}
