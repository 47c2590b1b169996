import { NotificationsList } from '@/features/notifications/components/notifications-list';
import { usePageTitle } from '@/lib/use-page-title';

export function NotificationsRoute() {
  usePageTitle('Notifications');
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Notifications</h1>
      <div className="mt-6">
        <NotificationsList />
      </div>
    </div>
  );
}
