import { useSearchParams } from 'react-router';

import { AuthCard } from '@/features/auth/components/auth-card';
import { SignupForm } from '@/features/auth/components/signup-form';

export function SignupRoute() {
  const [params] = useSearchParams();
  return (
    <AuthCard wide title="Create your Taskhub account" subtitle="Posting is free. Offering your services is free too — Taskhub only takes a 10% service fee when a job is paid.">
      <SignupForm initialType={params.get('type') === 'tasker' ? 'tasker' : 'customer'} />
    </AuthCard>
  );
}
