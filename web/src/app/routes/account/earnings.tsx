import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { usePayoutAccount } from '@/features/earnings/api/get-payout-account';
import { useStartPayoutOnboarding } from '@/features/earnings/api/start-payout-onboarding';
import { EarningsOverview } from '@/features/earnings/components/earnings-overview';
import { StartIdentityButton } from '@/features/verification/components/identity-verification';
import { queryKeys } from '@/lib/query-keys';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * /earnings. The payout provider sends the tasker back here: `?payouts=done` after onboarding (the
 * account's state is asked for again, which also sends waiting transfers), `?payouts=refresh` when
 * the onboarding link expired (a new one is made at once).
 */
export function EarningsRoute() {
  usePageTitle('Earnings');
  const [params] = useSearchParams();
  const returned = params.get('payouts');
  const client = useQueryClient();
  const account = usePayoutAccount();
  const restart = useStartPayoutOnboarding();
  const restarted = useRef(false);

  useEffect(() => {
    if (returned === 'refresh' && !restarted.current) {
      restarted.current = true;
      restart.mutate();
    }
  }, [returned, restart]);

  useEffect(() => {
    if (returned === 'done' && account.isSuccess) void client.invalidateQueries({ queryKey: queryKeys.myEarnings });
  }, [returned, account.isSuccess, account.data?.status, client]);

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Earnings</h1>
      <div className="mt-6 space-y-6">
        {returned === 'done' && account.data?.status === 'ready' && (
          <Alert tone="success">Payouts are set up. Released payments go to your bank account.</Alert>
        )}
        {returned === 'done' && account.data?.status === 'pending' && (
          <Alert tone="info">Your payout setup isn't finished yet. Continue when you're ready.</Alert>
        )}
        {returned === 'refresh' && restart.isError && <Alert>Your setup link expired and a new one could not be made. Please try again.</Alert>}
        <EarningsOverview identityAction={<StartIdentityButton />} />
      </div>
    </div>
  );
}
