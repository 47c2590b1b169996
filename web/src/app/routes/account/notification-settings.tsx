import { Link } from 'react-router';

import { NotificationPreferences } from '@/features/notification-settings/components/notification-preferences';
import { PushDevices } from '@/features/notification-settings/components/push-devices';
import { usePageTitle } from '@/lib/use-page-title';

export function NotificationSettingsRoute() {
  usePageTitle('Notification Settings');
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Notifications</h1>
      <p className="mt-2 text-slate-600">
        Choose how Taskhub reaches you when you are not on the site. Email is sent only for notifications you have not
        read within 10 minutes, at most once an hour.
      </p>
      <section aria-labelledby="device-heading" className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
        <h2 id="device-heading" className="mb-4 text-lg font-semibold text-slate-900">
          Push notifications
        </h2>
        <PushDevices />
      </section>
      <section aria-labelledby="kinds-heading" className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
        <h2 id="kinds-heading" className="mb-4 text-lg font-semibold text-slate-900">
          What to send
        </h2>
        <NotificationPreferences />
        <p className="mt-4 text-sm text-slate-600">
          Looking for new tasks?{' '}
          <Link to="/settings/alerts" className="font-medium text-brand-700 hover:underline">
            Manage your task alerts
          </Link>
        </p>
      </section>
    </div>
  );
}
