import { useCallback } from 'react';
import { useNavigate } from 'react-router';

import { signOut } from '@/lib/auth/actions';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

/**
 * Signs out with the spec's toasts and goes home, replacing history. Home comes first so a
 * protected page never sees the session vanish (it would redirect to /login instead).
 */
export function useSignOut() {
  const navigate = useNavigate();
  return useCallback(async () => {
    await navigate('/', { replace: true });
    try {
      await signOut();
      toast({
        title: 'Logged out successfully',
        description: 'You have been logged out of your account.',
        variant: 'success',
      });
    } catch (error) {
      toast({
        title: 'Logout failed',
        description: errorMessage(error, 'Something went wrong. Please try again.'),
        variant: 'error',
      });
    }
  }, [navigate]);
}
