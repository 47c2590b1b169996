import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { NotificationsPage } from '@/features/notifications/api/get-notifications';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function markNotificationRead(id: string) {
  return authorizedRequest<void>(`/api/notifications/${encodeURIComponent(id)}/read`, { method: 'POST' });
}

/** Marks one notification read, optimistically; the server's answer is the truth on failure. */
export function useMarkNotificationRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: markNotificationRead,
    onMutate: (id) => {
      client.setQueryData<NotificationsPage>(queryKeys.notifications, (page) => {
        if (!page) return page;
        const target = page.items.find((n) => n.id === id);
        if (!target || target.is_read) return page;
        return {
          ...page,
          unread_count: Math.max(0, page.unread_count - 1),
          items: page.items.map((n) => (n.id === id ? { ...n, is_read: true } : n)),
        };
      });
    },
    onError: () => void client.invalidateQueries({ queryKey: queryKeys.notifications }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.notificationPages }),
  });
}
