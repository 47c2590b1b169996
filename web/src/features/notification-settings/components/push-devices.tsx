import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import {
  removePushDevice,
  sendTestPush,
  usePushDevices,
} from '@/features/notification-settings/api/push-devices';
import { usePushDevice, type PushState } from '@/features/notification-settings/hooks/use-push-device';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';
import { toast } from '@/lib/toast';

const stateText: Record<PushState, string> = {
  loading: 'Checking this device…',
  unsupported: 'This browser cannot receive push notifications.',
  denied: 'Notifications are blocked for Taskhub in this browser. Allow them in your browser settings to turn them on.',
  off: 'Notifications are off on this device.',
  on: 'Notifications are on for this device.',
};

/** This device's push state with enable/disable, the list of devices, and a test push. */
export function PushDevices() {
  const device = usePushDevice();
  const devices = usePushDevices();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);

  const run = async (task: () => Promise<void>, failure: string) => {
    setBusy(true);
    try {
      await task();
    } catch (error) {
      toast({ title: failure, description: errorMessage(error, 'Please try again.'), variant: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const test = () =>
    run(async () => {
      const result = await sendTestPush();
      await client.invalidateQueries({ queryKey: queryKeys.pushDevices });
      toast(
        result.sent > 0
          ? { title: 'Test notification sent', description: `Sent to ${result.sent} device(s).`, variant: 'success' }
          : { title: 'No device received it', description: 'Enable notifications on a device first.', variant: 'error' },
      );
    }, 'Could not send a test notification');

  const remove = (endpoint: string) =>
    run(async () => {
      if (endpoint === device.endpoint) await device.disable();
      else await removePushDevice(endpoint);
      await client.invalidateQueries({ queryKey: queryKeys.pushDevices });
    }, 'Could not remove the device');

  const items = devices.data?.items ?? [];
  return (
    <div className="space-y-6">
      <div>
        <p className="text-slate-700" role="status">
          {stateText[device.state]}
        </p>
        <div className="mt-3 flex flex-wrap gap-3">
          {device.state === 'off' && (
            <Button loading={busy} onClick={() => run(device.enable, 'Could not enable notifications')}>
              Enable notifications on this device
            </Button>
          )}
          {device.state === 'on' && (
            <Button variant="outline" loading={busy} onClick={() => run(device.disable, 'Could not turn notifications off')}>
              Turn off on this device
            </Button>
          )}
          <Button variant="outline" disabled={busy || items.length === 0} onClick={test}>
            Send a test notification
          </Button>
        </div>
      </div>
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Your devices</h3>
        {items.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">No device receives push notifications yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-slate-100" aria-label="Your devices">
            {items.map((item) => (
              <li key={item.id} className="flex items-center justify-between gap-3 py-2 text-sm">
                <span>
                  <span className="block font-medium text-slate-900">
                    {item.label ?? 'Unnamed device'}
                    {item.endpoint === device.endpoint && ' (this device)'}
                  </span>
                  <span className="block text-slate-500">Added {formatDate(item.created_at)}</span>
                </span>
                <Button variant="ghost" size="sm" disabled={busy} onClick={() => remove(item.endpoint)}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
