import { ConnectionIndicator } from '@/components/realtime/connection-indicator';
import { NotificationsBell } from '@/features/notifications/components/notifications-bell';

/** The live parts the shell shows on every page: the notifications bell and the offline pill. */
export function HeaderExtras() {
  return (
    <>
      <NotificationsBell />
      <ConnectionIndicator />
    </>
  );
}
