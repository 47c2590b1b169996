import { AuthCard } from '@/features/auth/components/auth-card';
import { ConfirmSignupStatus } from '@/features/auth/components/confirm-signup-status';

export function ConfirmSignupRoute() {
  return (
    <AuthCard title="Confirm your email">
      <ConfirmSignupStatus />
    </AuthCard>
  );
}
