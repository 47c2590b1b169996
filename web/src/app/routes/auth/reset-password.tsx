import { AuthCard } from '@/features/auth/components/auth-card';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

export function ResetPasswordRoute() {
  return (
    <AuthCard title="Choose a new password" subtitle="Use at least 6 characters. A passphrase of a few words is easy to remember and hard to guess.">
      <ResetPasswordForm />
    </AuthCard>
  );
}
