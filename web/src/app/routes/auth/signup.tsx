import { useSearchParams } from 'react-router';

import { AuthCard } from '@/features/auth/components/auth-card';
import { SignupForm } from '@/features/auth/components/signup-form';
import { SocialSignupForm } from '@/features/auth/components/social-signup-form';

export function SignupRoute() {
  const [params] = useSearchParams();
  const initialType = params.get('type') === 'tasker' ? 'tasker' : 'customer';
  const socialToken = params.get('oidc');
  if (socialToken) {
    const name = [params.get('first_name'), params.get('last_name')].filter(Boolean).join(' ');
    const signup = { token: socialToken, provider: params.get('provider') ?? '', email: params.get('email') ?? '', name };
    return (
      <AuthCard wide title="Finish creating your account" subtitle="One more step: tell us whether you need help or want to offer your services.">
        <SocialSignupForm signup={signup} initialType={initialType} />
      </AuthCard>
    );
  }
  return (
    <AuthCard wide title="Create your Taskhub account" subtitle="Posting is free. Offering your services is free too — Taskhub only takes a 10% service fee when a job is paid.">
      <SignupForm initialType={initialType} />
    </AuthCard>
  );
}
