import { AuthCard } from '@/features/auth/components/auth-card';
import { SocialCallback } from '@/features/auth/components/social-callback';

export function AuthCallbackRoute() {
  return (
    <AuthCard title="Signing in">
      <SocialCallback />
    </AuthCard>
  );
}
