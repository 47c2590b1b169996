import { useCallback, useEffect } from 'react';

import { realtime } from '@/lib/realtime/client';

const ASKED_KEY = 'taskhub.notifications.asked';

export function browserNotificationsSupported() {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** Asks once, from a user gesture (never on page load). */
export function useRequestNotificationPermission() {
  return useCallback(async () => {
    if (!browserNotificationsSupported() || Notification.permission !== 'default') return;
    try {
      localStorage.setItem(ASKED_KEY, '1');
    } catch {
      // ignore
    }
    await Notification.requestPermission();
  }, []);
}

/** While signed in: a system notification for each live notification that arrives while the tab is hidden. */
export function useBrowserNotifications(enabled: boolean) {
  useEffect(() => {
    if (!enabled || !browserNotificationsSupported()) return;
    return realtime().onEvent((event) => {
      if (event.event !== 'notification.created' || document.visibilityState !== 'hidden') return;
      if (Notification.permission !== 'granted') return;
      const data = event.data as { id: string; title: string; message: string; link?: string | null };
      const shown = new Notification(data.title, { body: data.message, tag: data.id, icon: '/favicon.svg' });
      shown.onclick = () => {
        window.focus();
        if (data.link) window.location.assign(data.link);
        shown.close();
      };
    });
  }, [enabled]);
}
