import { AnimatePresence, m } from 'framer-motion';
import { Bell, BellRing, Calendar, CreditCard, MessageSquare, Tag } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useNotificationPages } from '@/features/notifications/api/get-notification-pages';
import { useNotifications, type AppNotification } from '@/features/notifications/api/get-notifications';
import { useMarkAllNotificationsRead } from '@/features/notifications/api/mark-all-notifications-read';
import { useMarkNotificationRead } from '@/features/notifications/api/mark-notification-read';
import { browserNotificationsSupported, useRequestNotificationPermission } from '@/features/notifications/hooks/use-browser-notifications';
import { errorMessage } from '@/lib/http';
import { relativeTime } from '@/lib/marketplace';

const icons = { offer: Tag, message: MessageSquare, payment: CreditCard, reminder: Calendar, task: Bell, task_alert: BellRing } as const;

function Item({ n }: { n: AppNotification }) {
  const markRead = useMarkNotificationRead();
  const Icon = icons[n.type as keyof typeof icons] ?? Bell;
  const body = (
    <>
      <p className="font-semibold text-slate-900">{n.title}</p>
      <p className="text-sm text-slate-700">{n.message}</p>
      <p className="mt-1 text-xs text-slate-500">{relativeTime(n.created_at)}</p>
    </>
  );
  return (
    <div
      data-unread={!n.is_read || undefined}
      className={`flex gap-3 rounded-xl border p-4 ${n.is_read ? 'border-slate-200 bg-white' : 'border-brand-200 bg-brand-50'}`}
    >
      <span className={`mt-0.5 inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full ${n.is_read ? 'bg-slate-100 text-slate-500' : 'bg-brand-100 text-brand-800'}`}>
        <Icon aria-hidden className="h-4 w-4" />
      </span>
      <div className="min-w-0 flex-1">
        {n.link ? (
          <Link to={n.link} onClick={() => !n.is_read && markRead.mutate(n.id)} className="block hover:underline">
            {body}
          </Link>
        ) : (
          body
        )}
      </div>
      {!n.is_read && (
        <Button variant="ghost" size="sm" onClick={() => markRead.mutate(n.id)} aria-label={`Mark "${n.title}" as read`}>
          Mark read
        </Button>
      )}
    </div>
  );
}

export function NotificationsList() {
  const live = useNotifications();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [showOlder, setShowOlder] = useState(false);
  // "All": the live first page, then older pages on demand. "Unread only": unread pages from the start.
  const pages = useNotificationPages(unreadOnly, unreadOnly ? null : (live.data?.next_cursor ?? null), unreadOnly || showOlder);
  const markAll = useMarkAllNotificationsRead();
  const ask = useRequestNotificationPermission();
  const canAsk = browserNotificationsSupported() && Notification.permission === 'default';
  const data = live.data;
  const paged = pages.data?.pages.flatMap((page) => page.items) ?? [];
  const combined = unreadOnly ? paged : [...(data?.items ?? []), ...(showOlder ? paged : [])];
  // A live notification can push an item across the first page's edge: show it once.
  const items = combined.filter((n, index) => combined.findIndex((other) => other.id === n.id) === index);
  const isPending = live.isPending || (unreadOnly && pages.isPending);
  const isError = live.isError || pages.isError;
  const error = live.error ?? pages.error;
  const unread = data?.unread_count ?? 0;
  const hasMore = unreadOnly || showOlder ? pages.hasNextPage : Boolean(data?.next_cursor);
  const loadMore = () => (unreadOnly || showOlder ? void pages.fetchNextPage() : setShowOlder(true));

  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600" aria-live="polite">
          {unread ? `${unread} unread` : 'All caught up'}
        </p>
        <div className="flex flex-wrap gap-2">
          <label className="inline-flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-1.5 text-sm text-slate-700">
            <input type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.target.checked)} className="h-4 w-4" />
            Unread only
          </label>
          {canAsk && (
            <Button variant="outline" size="sm" onClick={() => void ask()}>
              <BellRing aria-hidden className="h-4 w-4" /> Enable desktop alerts
            </Button>
          )}
          <Button variant="outline" size="sm" disabled={!unread} loading={markAll.isPending} onClick={() => markAll.mutate()}>
            Mark all as read
          </Button>
        </div>
      </div>
      <div className="mt-4">
        {isPending && (
          <ul role="status" aria-label="Loading" className="space-y-3">
            {[0, 1, 2].map((i) => (
              <li key={i} aria-hidden className="h-20 animate-pulse rounded-xl bg-slate-100" />
            ))}
          </ul>
        )}
        {isError && <Alert>{errorMessage(error, 'Error loading your notifications')}</Alert>}
        {!isPending && !isError && !items.length && unreadOnly && (
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center font-semibold text-slate-900">
            No unread notifications
          </p>
        )}
        {data && !items.length && !unreadOnly && (
          <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
            <Bell aria-hidden className="mx-auto h-10 w-10 text-slate-400" />
            <p className="mt-3 font-semibold text-slate-900">No notifications yet</p>
            <p className="mt-1 text-sm text-slate-600">Offers, messages and payments will show up here as they happen.</p>
          </div>
        )}
        <ul className="space-y-3" aria-label="Notifications">
          <AnimatePresence initial={false}>
            {items.map((n) => (
              <m.li key={n.id} layout initial={{ opacity: 0, y: -12 }} animate={{ opacity: 1, y: 0 }}>
                <Item n={n} />
              </m.li>
            ))}
          </AnimatePresence>
        </ul>
        {hasMore && !isPending && (
          <div className="mt-4 flex justify-center">
            <Button variant="outline" loading={pages.isFetchingNextPage || (showOlder && pages.isPending)} onClick={loadMore}>
              Load more
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
