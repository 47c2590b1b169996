import { useCallback } from 'react';
import { useNavigate } from 'react-router';

import { signOut } from '@/lib/auth/actions';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

/**
 * Signs out with the spec's toasts and goes home, replacing history. Home comes first so a
 * protected page never sees the session vanish (it would redirect to /login instead).
 */
export function useSignOut(style: 'account-menu' | 'mobile-menu' = 'account-menu') {
  const navigate = useNavigate();
  return useCallback(async () => {
    await navigate('/', { replace: true });
    try {
      await signOut();
      if (style === 'mobile-menu') toast({ title: 'Signed out successfully', variant: 'success' });
      else
        toast({
          title: 'Logged out successfully',
          description: 'You have been logged out of your account.',
          variant: 'success',
        });
    } catch (error) {
      if (style === 'mobile-menu')
        toast({ title: 'Failed to sign out', description: 'Please try again later.', variant: 'error' });
      else
        toast({
          title: 'Logout failed',
          description: errorMessage(error, 'Something went wrong. Please try again.'),
          variant: 'error',
        });
    }
  }, [navigate, style]);
}
