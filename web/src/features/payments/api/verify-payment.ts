import { useQuery } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { PaymentStatus, TaskStatus } from '@/lib/states';

export const verifyParamsSchema = z.object({
  session_id: z.string().min(1),
  task_id: z.string().min(1),
  offer_id: z.string().min(1),
});
export type VerifyParams = z.infer<typeof verifyParamsSchema>;
export type VerifyResult = {
  success: boolean;
  message?: string;
  payment_info?: { amount_cents: number; currency: string };
  /** `processing` while a delayed method (e.g. direct debit) settles: not a failure. */
  payment_status?: PaymentStatus;
  task_status?: TaskStatus;
};

/** A payment the bank has yet to confirm: the task is assigned once it settles. */
export function isProcessing(result: VerifyResult | undefined) {
  return Boolean(result && !result.success && result.payment_status === 'processing');
}

export function verifyPayment(params: VerifyParams) {
  return authorizedRequest<VerifyResult>('/api/payments/verify', { method: 'POST', body: params });
}

/** Verification is idempotent on the server, so a query (deduplicated, not retried) fits. */
export function useVerifyPayment(params: VerifyParams | null) {
  return useQuery({
    queryKey: queryKeys.verifyPayment(params),
    queryFn: () => verifyPayment(params!),
    enabled: Boolean(params),
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}
