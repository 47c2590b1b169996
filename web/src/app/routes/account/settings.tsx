import { Link, useSearchParams } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { AvatarUploader } from '@/features/settings/components/avatar-uploader';
import { LinkedAccounts } from '@/features/settings/components/linked-accounts';
import { PrivacySettings } from '@/features/settings/components/privacy-settings';
import { SettingsForm } from '@/features/settings/components/settings-form';
import { SkillsSettings } from '@/features/settings/components/skills-settings';
import { useVerification } from '@/features/verification/api/get-verification';
import { IdentityVerification } from '@/features/verification/components/identity-verification';
import { PhoneVerification } from '@/features/verification/components/phone-verification';
import { useAuth } from '@/lib/auth/use-auth';
import { usePageTitle } from '@/lib/use-page-title';

/** What the identity provider's return (`?identity=done`) found. */
function IdentityReturn() {
  const verification = useVerification();
  if (!verification.data) return null;
  if (verification.data.identity) return <Alert tone="success" className="mt-6">Your identity is verified.</Alert>;
  if (verification.data.identity_failed && !verification.data.identity_pending) {
    return <Alert className="mt-6">Your identity could not be verified. You can try again below.</Alert>;
  }
  return <Alert tone="info" className="mt-6">Your identity check is being processed. This page shows the result when it's ready.</Alert>;
}

export function SettingsRoute() {
  usePageTitle('Account Settings');
  const { profile } = useAuth();
  const [params] = useSearchParams();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Account Settings</h1>
      <p className="mt-2 text-slate-600">Update how you appear to other Taskhub members.</p>
      <p className="mt-2 text-slate-600">
        <Link to="/settings/notifications" className="font-medium text-brand-700 hover:underline">
          Notification settings
        </Link>{' '}
        — email, push and your devices.
      </p>
      {params.get('identity') === 'done' && <IdentityReturn />}
      <section aria-labelledby="photo-heading" className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
        <h2 id="photo-heading" className="mb-4 text-lg font-semibold text-slate-900">
          Profile picture
        </h2>
        <AvatarUploader />
      </section>
      <section aria-labelledby="verification-heading" className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
        <h2 id="verification-heading" className="text-lg font-semibold text-slate-900">
          Verifications
        </h2>
        <h3 className="mb-3 mt-4 font-semibold text-slate-900">Mobile number</h3>
        <PhoneVerification />
        <h3 className="mb-3 mt-6 font-semibold text-slate-900">Identity</h3>
        <IdentityVerification />
      </section>
      <section aria-labelledby="details-heading" className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
        <h2 id="details-heading" className="mb-4 text-lg font-semibold text-slate-900">
          Personal details
        </h2>
        <SettingsForm />
      </section>
      <section aria-labelledby="alerts-heading" className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
        <h2 id="alerts-heading" className="text-lg font-semibold text-slate-900">
          Task alerts
        </h2>
        <p className="mt-1 text-sm text-slate-600">Get told about new tasks that match your saved searches.</p>
        <Link to="/settings/alerts" className="mt-3 inline-block font-semibold text-brand-700 hover:underline">
          Manage task alerts
        </Link>
      </section>
      <section aria-labelledby="privacy-heading" className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
        <h2 id="privacy-heading" className="mb-4 text-lg font-semibold text-slate-900">
          Privacy
        </h2>
        <PrivacySettings />
      </section>
      <section aria-labelledby="linked-heading" className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
        <h2 id="linked-heading" className="mb-4 text-lg font-semibold text-slate-900">
          Linked accounts
        </h2>
        <LinkedAccounts />
      </section>
      {profile?.is_tasker && (
        <section aria-labelledby="skills-heading" className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
          <h2 id="skills-heading" className="mb-4 text-lg font-semibold text-slate-900">
            Skills
          </h2>
          <SkillsSettings />
        </section>
      )}
    </div>
  );
}
