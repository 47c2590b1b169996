import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import type { Dispute, DisputeOutcome } from '@/features/disputes/api/get-dispute';
import { authorizedRequest } from '@/lib/auth/session';
import { formatMoney } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export type ResolveDisputeInput = { outcome: DisputeOutcome; refund_cents?: number; note: string };
export type ResolveDisputeDraft = { outcome: string; refund: string; note: string };

/** Dollars typed by an operator ("12", "12.5", "12.50") to integer cents, or null when it is not an amount. */
export function dollarsToCents(value: string): number | null {
  const match = /^\s*\$?\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Checks an operator's decision against the payment's amount and returns the API body or the field errors. */
export function resolveDisputeSchema(amountCents: number, currency: string) {
  const max = amountCents - 1;
  const range = `Please enter a refund between ${formatMoney(1, currency, true)} and ${formatMoney(max, currency, true)}`;
  return z
    .object({
      outcome: z.enum(['release', 'partial_refund', 'refund'], { message: 'Please choose an outcome' }),
      refund: z.string(),
      note: z.string().trim().min(1, 'Please explain the decision').max(2000, 'Please keep it under 2000 characters'),
    })
    .superRefine((draft, ctx) => {
      if (draft.outcome !== 'partial_refund') return;
      const cents = dollarsToCents(draft.refund);
      if (cents === null || cents < 1 || cents > max) ctx.addIssue({ code: 'custom', path: ['refund'], message: range });
    })
    .transform(
      (draft): ResolveDisputeInput =>
        draft.outcome === 'partial_refund'
          ? { outcome: draft.outcome, refund_cents: dollarsToCents(draft.refund)!, note: draft.note }
          : { outcome: draft.outcome, note: draft.note },
    );
}

export function resolveDispute(disputeId: string, input: ResolveDisputeInput) {
  return authorizedRequest<Dispute>(`/api/admin/disputes/${encodeURIComponent(disputeId)}/resolve`, { method: 'POST', body: input });
}

/** An operator's decision: release, partial refund (cents) or full refund, with a note both parties see. */
export function useResolveDispute(disputeId: string, taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ResolveDisputeInput) => resolveDispute(disputeId, input),
    onSuccess: (dispute) => {
      client.setQueryData(queryKeys.dispute(taskId), dispute);
      void client.invalidateQueries({ queryKey: queryKeys.adminDisputes });
      void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
    },
  });
}
