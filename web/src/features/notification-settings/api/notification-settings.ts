import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export type Channel = 'email' | 'push';
export type NotificationSettings = Record<Channel, Record<string, boolean>>;


export function getNotificationSettings(): Promise<NotificationSettings> {
  return authorizedRequest<NotificationSettings>('/api/me/notification-settings');
}

export function useNotificationSettings() {
  return useQuery({ queryKey: queryKeys.notificationSettings, queryFn: getNotificationSettings });
}

export function updateNotificationSettings(changes: Partial<NotificationSettings>): Promise<NotificationSettings> {
  return authorizedRequest<NotificationSettings>('/api/me/notification-settings', { method: 'PUT', body: changes });
}

/** Saves one toggle; the answer (the settings now in force) replaces the cache. */
export function useUpdateNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationSettings,
    onSuccess: (saved) => client.setQueryData(queryKeys.notificationSettings, saved),
  });
}
