import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import { useEffect, type ReactNode } from 'react';

import { ReportActionProvider, type ReportTarget } from '@/components/moderation/report-action';
import { onAuthStateChange } from '@/lib/auth/session';
import { onDeferredPush } from '@/lib/push-subscription';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { appStore } from '@/lib/store';
import { lazyWhenIdle } from '@/lib/when-idle';
import { withMotion } from '@/lib/with-motion';

/** Not needed for the first paint: toasts raised before it has loaded wait in their atom. */
const Toaster = lazyWhenIdle(() => withMotion(() => import('@/components/ui/toaster').then((module) => module.Toaster)));

/** Every item's Report action, loaded once the browser is idle. */
const ReportButton = lazyWhenIdle(() => import('@/features/moderation/components/report-button').then((module) => module.ReportButton));
const renderReport = (target: ReportTarget) => <ReportButton target={target} />;

export function AppProvider({ children }: { children: ReactNode }) {
  useEffect(
    () =>
      onAuthStateChange((event) => {
        // Another user's cached data must never leak into this session.
        if (event === 'SIGNED_OUT' || event === 'SIGNED_IN') queryClient.removeQueries({ queryKey: queryKeys.me });
      }),
    [],
  );
  // A push the worker left to this tab: the in-app list catches up if the socket missed it.
  useEffect(() => onDeferredPush(() => void queryClient.invalidateQueries({ queryKey: queryKeys.notifications })), []);

  return (
    <JotaiProvider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <ReportActionProvider render={renderReport}>{children}</ReportActionProvider>
        <Toaster />
      </QueryClientProvider>
    </JotaiProvider>
  );
}
