import { useInfiniteQuery } from '@tanstack/react-query';

import type { NotificationsPage } from '@/features/notifications/api/get-notifications';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';


export function getNotificationsPage(unreadOnly: boolean, cursor: string | null): Promise<NotificationsPage> {
  const params = new URLSearchParams({ limit: '50' });
  if (unreadOnly) params.set('unread_only', 'true');
  if (cursor) params.set('cursor', cursor);
  return authorizedRequest<NotificationsPage>(`/api/notifications?${params}`);
}

/**
 * Pages of notifications beyond what the live first page shows: from `after` (the live page's
 * `next_cursor`), or every unread one from the start. Fetched only once `enabled`.
 */
export function useNotificationPages(unreadOnly: boolean, after: string | null, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: queryKeys.notificationPage({ unreadOnly, after }),
    queryFn: ({ pageParam }) => getNotificationsPage(unreadOnly, pageParam),
    initialPageParam: after,
    getNextPageParam: (last) => (last.has_more ? (last.next_cursor ?? undefined) : undefined),
    enabled,
  });
}
