import { Bell } from 'lucide-react';
import { Link } from 'react-router';

import { useNotifications } from '@/features/notifications/api/get-notifications';
import { useBrowserNotifications } from '@/features/notifications/hooks/use-browser-notifications';
import { useAuth } from '@/lib/auth/use-auth';

/** Header bell with the live unread count (kept current by the socket). */
export function NotificationsBell() {
  const { user } = useAuth();
  const { data } = useNotifications(Boolean(user));
  useBrowserNotifications(Boolean(user));
  if (!user) return null;
  const unread = data?.unread_count ?? 0;
  const label = unread ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Link
      to="/notifications"
      aria-label={label}
      className="relative inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
    >
      <Bell aria-hidden className="h-5 w-5" />
      {unread > 0 && (
        <span
          data-testid="unread-badge"
          className="absolute right-1 top-1 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-bold leading-5 text-white"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </Link>
  );
}
