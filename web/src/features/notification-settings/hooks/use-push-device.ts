import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';

import {
  addPushDevice,
  getPushPublicKey,
  removePushDevice,
} from '@/features/notification-settings/api/push-devices';
import { ApiError } from '@/lib/http';
import { currentPushSubscription, pushSupported } from '@/lib/push-subscription';
import { queryKeys } from '@/lib/query-keys';

/** This browser's push state: what the device card shows. */
export type PushState = 'loading' | 'unsupported' | 'denied' | 'off' | 'on';

function urlBase64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = (text + '='.repeat((4 - (text.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A name for this device in the list, e.g. "Chrome on Android". */
export function deviceLabel(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : 'this device';
  return `${browser} on ${system}`;
}

async function registration() {
  return navigator.serviceWorker.register('/sw.js', { scope: '/' });
}

/**
 * Push on this device: its state, and enable/disable. Enabling asks for permission, so it
 * must run from a click (never on page load).
 */
export function usePushDevice() {
  const client = useQueryClient();
  const [state, setState] = useState<PushState>('loading');
  const [endpoint, setEndpoint] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    if (!pushSupported()) return setState('unsupported');
    if (Notification.permission === 'denied') return setState('denied');
    const subscription = await currentPushSubscription().catch(() => null);
    setEndpoint(subscription?.endpoint ?? null);
    setState(subscription && Notification.permission === 'granted' ? 'on' : 'off');
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const enable = useCallback(async () => {
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') {
      await refresh();
      throw new Error('Notifications are blocked for this site. Allow them in your browser settings.');
    }
    const worker = await registration();
    await navigator.serviceWorker.ready;
    const { key } = await getPushPublicKey();
    const subscribe = () =>
      worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBase64ToBytes(key) });
    const subscription = (await worker.pushManager.getSubscription()) ?? (await subscribe());
    const label = deviceLabel(navigator.userAgent);
    try {
      await addPushDevice(subscription.toJSON(), label);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      // This browser's subscription is another account's device (someone signed in here before
      // and never signed out): the server will not hand it over, so start a new one.
      await subscription.unsubscribe();
      await addPushDevice((await subscribe()).toJSON(), label);
    }
    await client.invalidateQueries({ queryKey: queryKeys.pushDevices });
    await refresh();
  }, [client, refresh]);

  const disable = useCallback(async () => {
    const subscription = await currentPushSubscription();
    if (subscription) {
      await removePushDevice(subscription.endpoint);
      await subscription.unsubscribe();
    }
    await client.invalidateQueries({ queryKey: queryKeys.pushDevices });
    await refresh();
  }, [client, refresh]);

  return { state, endpoint, enable, disable };
}
