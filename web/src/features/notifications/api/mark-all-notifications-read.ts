import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { NotificationsPage } from '@/features/notifications/api/get-notifications';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function markAllNotificationsRead() {
  return authorizedRequest<void>('/api/notifications/read-all', { method: 'POST' });
}

export function useMarkAllNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onMutate: () =>
      client.setQueryData<NotificationsPage>(queryKeys.notifications, (page) =>
        page ? { ...page, unread_count: 0, items: page.items.map((n) => ({ ...n, is_read: true })) } : page,
      ),
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.notifications }),
  });
}
