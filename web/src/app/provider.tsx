import { QueryClientProvider } from '@tanstack/react-query';
import { domAnimation, LazyMotion, MotionConfig } from 'framer-motion';
import { Provider as JotaiProvider } from 'jotai';
import { useEffect, type ReactNode } from 'react';

import { Toaster } from '@/components/ui/toaster';
import { onAuthStateChange } from '@/lib/auth/session';
import { queryClient } from '@/lib/query-client';
import { appStore } from '@/lib/store';

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
        <LazyMotion features={domAnimation} strict>
          <MotionConfig reducedMotion="user">
            {children}
            <Toaster />
          </MotionConfig>
        </LazyMotion>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
