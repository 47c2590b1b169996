import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

import { PageSpinner } from '@/components/ui/spinner';
import { fromLocation } from '@/lib/auth/redirect';
import { useAuth } from '@/lib/auth/use-auth';

/** Signed-out visitors go to /login carrying where they wanted to be; a spinner shows while the session loads. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { session, loading } = useAuth();
  const location = useLocation();
  if (loading) return <PageSpinner label="Loading your session" />;
  if (!session) return <Navigate to="/login" replace state={fromLocation(location)} />;
  return <>{children}</>;
}
