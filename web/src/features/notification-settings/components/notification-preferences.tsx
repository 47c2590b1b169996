import { PageSpinner } from '@/components/ui/spinner';
import {
  useNotificationSettings,
  useUpdateNotificationSettings,
  type Channel,
} from '@/features/notification-settings/api/notification-settings';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import type { NotificationKind } from '@/lib/states';

/** Every notification kind, in the order the server lists them, with what it covers. */
export const notificationKinds: { kind: NotificationKind; label: string; description: string }[] = [
  { kind: 'offer', label: 'Offers', description: 'New offers on your tasks, and offers of yours accepted' },
  { kind: 'message', label: 'Messages', description: 'Messages about a task you are working on' },
  { kind: 'payment', label: 'Payments', description: 'Payments held, released and refunded' },
  { kind: 'dispute', label: 'Disputes', description: 'Disputes opened and decided' },
  { kind: 'reminder', label: 'Reminders', description: 'Things waiting for you, like a payment to release' },
  { kind: 'task', label: 'Task updates', description: 'Questions, answers, completions and cancellations' },
  { kind: 'task_alert', label: 'Task alerts', description: 'New tasks that match your saved alerts' },
];

const channels: { channel: Channel; label: string }[] = [
  { channel: 'email', label: 'Email' },
  { channel: 'push', label: 'Push' },
];

export function NotificationPreferences() {
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();

  if (settings.isPending) return <PageSpinner label="Loading your notification settings" />;
  if (settings.isError)
    return <p role="alert">{errorMessage(settings.error, 'Could not load your notification settings.')}</p>;

  const toggle = (channel: Channel, kind: NotificationKind, enabled: boolean) =>
    update.mutate(
      { [channel]: { [kind]: enabled } },
      {
        onError: (error) =>
          toast({ title: 'Failed to update settings', description: errorMessage(error, 'Please try again.'), variant: 'error' }),
      },
    );

  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Which notifications reach you by email and by push</caption>
      <thead>
        <tr className="border-b border-slate-200 text-slate-500">
          <th scope="col" className="py-2 pr-2 font-medium">
            Notification
          </th>
          {channels.map(({ channel, label }) => (
            <th key={channel} scope="col" className="w-16 py-2 text-center font-medium">
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {notificationKinds.map(({ kind, label, description }) => (
          <tr key={kind} className="border-b border-slate-100 last:border-0">
            <th scope="row" className="py-3 pr-2 font-normal">
              <span className="block font-medium text-slate-900">{label}</span>
              <span className="block text-slate-500">{description}</span>
            </th>
            {channels.map(({ channel, label: channelLabel }) => (
              <td key={channel} className="py-3 text-center">
                <input
                  type="checkbox"
                  className="h-5 w-5 accent-brand-700"
                  aria-label={`${channelLabel} for ${label}`}
                  checked={settings.data[channel][kind] ?? false}
                  onChange={(event) => toggle(channel, kind, event.target.checked)}
                />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
