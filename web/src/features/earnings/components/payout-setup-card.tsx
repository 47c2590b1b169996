import { Landmark } from 'lucide-react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { PayoutAccountStatus } from '@/features/earnings/api/get-payout-account';
import { useStartPayoutOnboarding } from '@/features/earnings/api/start-payout-onboarding';
import { errorMessage } from '@/lib/http';

const copy: Record<PayoutAccountStatus, { title: string; body: string; action: string }> = {
  none: {
    title: 'Set up payouts',
    body: 'Add the bank account your earnings are paid into. Released payments are transferred less the 10% service fee and take 3-5 business days to arrive.',
    action: 'Set up payouts',
  },
  pending: {
    title: 'Finish setting up payouts',
    body: 'Your payout setup is not finished yet. Released payments wait until it is, then go out straight away.',
    action: 'Continue setup',
  },
  ready: {
    title: 'Payouts are set up',
    body: 'Released payments are transferred to your bank account and take 3-5 business days to arrive.',
    action: 'Update bank details',
  },
};

/** The tasker's payout account: where it stands, and the way to (finish) setting it up. */
export function PayoutSetupCard({ status, navigate }: { status: PayoutAccountStatus; navigate?: (url: string) => void }) {
  const onboarding = useStartPayoutOnboarding(navigate);
  const text = copy[status];
  return (
    <section aria-labelledby="payout-setup-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-start gap-4">
        <span className={`rounded-xl p-2.5 ${status === 'ready' ? 'bg-emerald-50 text-emerald-700' : 'bg-brand-50 text-brand-700'}`}>
          <Landmark aria-hidden className="h-6 w-6" />
        </span>
        <div className="min-w-0 flex-1 space-y-2">
          <h2 id="payout-setup-heading" className="text-lg font-semibold text-slate-900">
            {text.title}
          </h2>
          <p className="text-sm text-slate-600">{text.body}</p>
          {onboarding.isError && <Alert>{errorMessage(onboarding.error, 'Payout setup could not be started. Please try again.')}</Alert>}
          <Button
            variant={status === 'ready' ? 'outline' : 'primary'}
            size="sm"
            loading={onboarding.isPending}
            onClick={() => onboarding.mutate()}
          >
            {text.action}
          </Button>
        </div>
      </div>
    </section>
  );
}
