import { AuthCard } from '@/features/auth/components/auth-card';
import { VerifyEmailStatus } from '@/features/auth/components/verify-email-status';

export function VerifyEmailRoute() {
  return (
    <AuthCard title="Verify your email">
      <VerifyEmailStatus />
    </AuthCard>
  );
}
