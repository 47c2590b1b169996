import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { NotificationKind } from '@/lib/states';

export type AppNotification = {
  id: string;
  type: NotificationKind;
  title: string;
  message: string;
  link: string | null;
  is_read: boolean;
  created_at: string;
};
export type NotificationsPage = {
  items: AppNotification[];
  unread_count: number;
  next_cursor: string | null;
  has_more: boolean;
};

export function getNotifications(): Promise<NotificationsPage> {
  return authorizedRequest<NotificationsPage>('/api/notifications?limit=50');
}

/** The list and the unread count; kept current by `notification.created` on the user's topic. */
export function useNotifications(enabled = true) {
  return useQuery({ queryKey: queryKeys.notifications, queryFn: getNotifications, enabled, staleTime: 5 * 60 * 1000 });
}
