import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { request } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

export type PushDevice = {
  id: string;
  endpoint: string;
  label: string | null;
  created_at: string;
  last_success_at: string | null;
};


export function getPushDevices(): Promise<{ items: PushDevice[] }> {
  return authorizedRequest<{ items: PushDevice[] }>('/api/me/push-subscriptions');
}

export function usePushDevices() {
  return useQuery({ queryKey: queryKeys.pushDevices, queryFn: getPushDevices });
}

export function getPushPublicKey(): Promise<{ key: string }> {
  return request<{ key: string }>('/api/push/public-key');
}

/** What `PushSubscription.toJSON()` gives, plus a name for the device list. */
export function addPushDevice(subscription: PushSubscriptionJSON, label: string): Promise<PushDevice> {
  return authorizedRequest<PushDevice>('/api/me/push-subscriptions', {
    method: 'POST',
    body: { endpoint: subscription.endpoint, keys: subscription.keys, label },
  });
}

export function removePushDevice(endpoint: string): Promise<void> {
  return authorizedRequest<void>('/api/me/push-subscriptions', { method: 'DELETE', body: { endpoint } });
}

export function sendTestPush(): Promise<{ sent: number; failed: number }> {
  return authorizedRequest<{ sent: number; failed: number }>('/api/me/push-subscriptions/test', { method: 'POST' });
}
