import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';

export type Channel = 'email' | 'push';
export type NotificationSettings = Record<Channel, Record<string, boolean>>;

export const notificationSettingsKey = ['notification-settings'] as const;

export function getNotificationSettings(): Promise<NotificationSettings> {
  return authorizedRequest<NotificationSettings>('/api/me/notification-settings');
}

export function useNotificationSettings() {
  return useQuery({ queryKey: notificationSettingsKey, queryFn: getNotificationSettings });
}

export function updateNotificationSettings(changes: Partial<NotificationSettings>): Promise<NotificationSettings> {
  return authorizedRequest<NotificationSettings>('/api/me/notification-settings', { method: 'PUT', body: changes });
}

/** Saves one toggle; the answer (the settings now in force) replaces the cache. */
export function useUpdateNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationSettings,
    onSuccess: (saved) => client.setQueryData(notificationSettingsKey, saved),
  });
}
