import { BadgeCheck } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { ReportAction } from '@/components/moderation/report-action';
import { Alert } from '@/components/ui/alert';
import { Avatar } from '@/components/ui/avatar';
import { Button, buttonClasses } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { useProfile } from '@/features/profiles/api/get-profile';
import { InviteDialog } from '@/features/profiles/components/invite-dialog';
import { ProfileTabs, Stars } from '@/features/profiles/components/profile-tabs';
import { useAuth } from '@/lib/auth/use-auth';
import { formatMemberSince } from '@/lib/format';
import { relativeTime } from '@/lib/marketplace';
import { usePageTitle } from '@/lib/use-page-title';
import { getDisplayName, getInitials } from '@/lib/user-names';

/** Only what Taskhub checks: phone numbers and identities are not checked, so they are not listed. */
const verificationItems = [
  { key: 'email', label: 'Email' },
  { key: 'phone', label: 'Phone' },
  { key: 'identity', label: 'Identity' },
  { key: 'payment', label: 'Payment method' },
] as const;

/** "within 5 minutes", "within 3 hours", "within 2 days". */
export function formatResponseTime(minutes: number): string {
  const plural = (n: number, unit: string) => `within ${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes < 60) return plural(Math.max(1, minutes), 'minute');
  if (minutes < 24 * 60) return plural(Math.round(minutes / 60), 'hour');
  return plural(Math.round(minutes / (24 * 60)), 'day');
}

export function ProfileView({ userId }: { userId: string }) {
  const { user } = useAuth();
  const profile = useProfile(userId);
  const [params] = useSearchParams();
  const [dialog, setDialog] = useState<'invite' | 'contact' | null>(null);
  usePageTitle(profile.data ? getDisplayName(profile.data) : 'Profile');

  if (profile.isPending) return <PageSpinner label="Loading profile" />;
  if (profile.isError) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-12">
        <h1 className="mb-4 text-2xl font-bold text-slate-900">Profile</h1>
        <Alert title={profile.error.message === 'Not Found' ? 'Profile not found' : "We couldn't load this profile"}>
          {profile.error.message}
        </Alert>
      </div>
    );
  }

  const data = profile.data;
  const name = getDisplayName(data);
  const isOwn = user?.id === data.id;
  const verified = data.verified ?? {};
  const isVerifiedTasker = Boolean(data.is_tasker && verified.email);
  // Figures the server could not compute yet (nobody wrote to them, never active) are left out, not shown as "—".
  const stats = [
    { label: 'Member since', value: formatMemberSince(data.member_since) },
    { label: 'Tasks completed', value: String(data.tasks_completed ?? 0) },
    ...(data.response_rate != null ? [{ label: 'Response rate', value: `${Math.round(data.response_rate)}%` }] : []),
    ...(data.response_minutes != null ? [{ label: 'Response time', value: formatResponseTime(data.response_minutes) }] : []),
    ...(data.last_active_at ? [{ label: 'Last active', value: relativeTime(data.last_active_at) }] : []),
  ];

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
      {params.get('tasker') === 'new' && isOwn && (
        <Alert tone="success" title="Welcome to Taskhub for taskers" className="mb-6">
          Your tasker profile is live. Add a photo, a bio and your skills in{' '}
          <Link to="/settings" className="font-semibold underline">
            Account Settings
          </Link>
          , then <Link to="/tasks" className="font-semibold underline">browse open tasks</Link> to make your first offer.
        </Alert>
      )}
      <div className="grid gap-6 lg:grid-cols-[20rem_1fr]">
        <aside className="space-y-6">
          <section className="rounded-2xl bg-white p-6 text-center ring-1 ring-slate-200">
            <Avatar src={data.avatar_url} initials={getInitials(data)} alt={`${name}'s profile picture`} size="xl" className="mx-auto" />
            <h1 className="mt-4 text-2xl font-bold text-slate-900">{name}</h1>
            {isVerifiedTasker && (
              <p className="mt-2 inline-flex items-center gap-1 rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-800 ring-1 ring-brand-200">
                <BadgeCheck aria-hidden="true" className="h-4 w-4" /> Taskhub Verified
              </p>
            )}
            {data.location && <p className="mt-2 text-sm text-slate-600">{data.location}</p>}
            {data.rating != null && (data.review_count ?? 0) > 0 ? (
              <p className="mt-2 flex items-center justify-center gap-2 text-sm text-slate-700">
                <Stars rating={data.rating} />
                <span>
                  {data.rating.toFixed(1)} · {data.review_count} {data.review_count === 1 ? 'review' : 'reviews'}
                </span>
              </p>
            ) : (
              <p className="mt-2 text-sm text-slate-500">No reviews yet</p>
            )}
            {data.bio && <p className="mt-4 text-left text-sm leading-relaxed text-slate-700">{data.bio}</p>}
            {isOwn ? (
              <Link to="/settings" className={buttonClasses('outline', 'md', 'mt-5 w-full')}>
                Edit profile
              </Link>
            ) : (
              <div className="mt-5 grid grid-cols-2 gap-2">
                <Button variant="outline" onClick={() => setDialog('contact')}>
                  Contact
                </Button>
                <Button onClick={() => setDialog('invite')}>Invite to Task</Button>
              </div>
            )}
            {!isOwn && (
              <div className="mt-2 flex justify-center">
                <ReportAction target={{ type: 'user', id: data.id }} />
              </div>
            )}
          </section>

          <section className="rounded-2xl bg-white p-6 ring-1 ring-slate-200" aria-labelledby="stats-heading">
            <h2 id="stats-heading" className="text-base font-semibold text-slate-900">
              Stats
            </h2>
            <dl className="mt-3 space-y-2 text-sm">
              {stats.map((stat) => (
                <div key={stat.label} className="flex justify-between gap-4">
                  <dt className="text-slate-500">{stat.label}</dt>
                  <dd className="font-medium text-slate-900">{stat.value}</dd>
                </div>
              ))}
            </dl>
          </section>

          <section className="rounded-2xl bg-white p-6 ring-1 ring-slate-200" aria-labelledby="verification-heading">
            <h2 id="verification-heading" className="text-base font-semibold text-slate-900">
              Verification
            </h2>
            <ul className="mt-3 space-y-2 text-sm">
              {verificationItems.map((item) => {
                const ok = Boolean(verified[item.key]);
                return (
                  <li key={item.key} className="flex items-center justify-between">
                    <span className="text-slate-700">{item.label}</span>
                    <span className={ok ? 'font-medium text-emerald-700' : 'text-slate-500'}>{ok ? '✓ Verified' : 'Not verified'}</span>
                  </li>
                );
              })}
            </ul>
          </section>
        </aside>

        <section aria-label="Profile details" className="min-w-0">
          <ProfileTabs profile={data} name={name} isOwn={isOwn} />
        </section>
      </div>
      {dialog && <InviteDialog open onClose={() => setDialog(null)} name={name} taskerId={data.id} mode={dialog} />}
    </div>
  );
}
