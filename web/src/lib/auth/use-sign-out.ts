import { useCallback } from 'react';
import { useNavigate } from 'react-router';

import { signOut } from '@/lib/auth/actions';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

/** Signs out with the spec's toasts and goes home, replacing history. */
export function useSignOut() {
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await signOut();
      toast({
        title: 'Logged out successfully',
        description: 'You have been logged out of your account.',
        variant: 'success',
      });
      navigate('/', { replace: true });
    } catch (error) {
      toast({
        title: 'Logout failed',
        description: errorMessage(error, 'Something went wrong. Please try again.'),
        variant: 'error',
      });
    }
  }, [navigate]);
}
