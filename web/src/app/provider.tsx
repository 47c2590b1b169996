import { QueryClientProvider } from '@tanstack/react-query';
import { LazyMotion, MotionConfig } from 'framer-motion';
import { Provider as JotaiProvider } from 'jotai';
import { useEffect, type ReactNode } from 'react';

import { Toaster } from '@/components/ui/toaster';
import { onAuthStateChange } from '@/lib/auth/session';
import { queryClient } from '@/lib/query-client';
import { appStore } from '@/lib/store';

/** The animation engine is not needed for the first paint, so it is its own chunk. */
const loadMotionFeatures = () => import('@/lib/motion-features').then((module) => module.default);

export function AppProvider({ children }: { children: ReactNode }) {
  useEffect(
    () =>
      onAuthStateChange((event) => {
        // Another user's cached data must never leak into this session.
        if (event === 'SIGNED_OUT' || event === 'SIGNED_IN') queryClient.removeQueries({ queryKey: ['me'] });
      }),
    [],
  );

  return (
    <JotaiProvider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <LazyMotion features={loadMotionFeatures} strict>
          <MotionConfig reducedMotion="user">
            {children}
            <Toaster />
          </MotionConfig>
        </LazyMotion>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
