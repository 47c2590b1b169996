import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { ProviderCallStatus } from '@/lib/states';

export type ProviderCall = {
  id: string;
  payment_id: string;
  kind: string;
  provider: string;
  provider_ref: string | null;
  amount_cents: number;
  attempts: number;
  status: ProviderCallStatus;
  last_error: string | null;
  next_attempt_at: string;
  created_at: string;
  updated_at: string;
};

export function getProviderCalls() {
  return authorizedRequest<{ items: ProviderCall[] }>('/api/admin/provider-calls').then((r) => r.items);
}

/** Transfers and refunds the payments worker gave up on, waiting for an operator. */
export function useProviderCalls() {
  return useQuery({ queryKey: queryKeys.adminProviderCalls, queryFn: getProviderCalls });
}
