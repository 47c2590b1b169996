import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

/** `url`: where to finish the setup (Stripe's onboarding, or the sandbox's page); null when nothing is needed. */
export type PayoutOnboarding = { url: string | null; ready: boolean };

export function startPayoutOnboarding() {
  return authorizedRequest<PayoutOnboarding>('/api/me/payouts/onboarding', { method: 'POST' });
}

/** Creates the payout account (once) and a fresh link to set it up; the browser then goes there. */
export function useStartPayoutOnboarding(navigate: (url: string) => void = (url) => window.location.assign(url)) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: startPayoutOnboarding,
    onSuccess: (result) => {
      if (result.url) navigate(result.url);
      else void client.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}
