import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { DisputeStatus } from '@/lib/states';

export const DISPUTE_REASONS = {
  not_completed: "The task wasn't completed",
  poor_quality: 'The work was poor quality',
  no_show: "The tasker didn't show up",
  other: 'Something else',
} as const;
/** A tasker's dispute is about the poster, so the poster's complaints about the work do not apply. */
export const TASKER_DISPUTE_REASONS = { other: DISPUTE_REASONS.other } as const;
export type DisputeReason = keyof typeof DISPUTE_REASONS;
export type DisputeOutcome = 'release' | 'partial_refund' | 'refund';

export type Dispute = {
  id: string;
  task_id: string;
  opened_by: string;
  /** A `DisputeReason` (shown through `reasonLabel`, which also copes with one added later). */
  reason: string;
  message: string;
  /** `open` | `resolved`. */
  status: DisputeStatus;
  /** A `DisputeOutcome`, once resolved. */
  outcome: string | null;
  refund_cents: number | null;
  resolution_note: string | null;
  /** Opened by Taskhub from the poster's cancellation request nobody answered after the tasker asked to be paid (`message` is its reason). */
  from_cancellation: boolean;
  created_at: string;
  resolved_at: string | null;
};

export function reasonLabel(reason: string): string {
  return DISPUTE_REASONS[reason as DisputeReason] ?? reason;
}

export function getDispute(taskId: string): Promise<Dispute | null> {
  return authorizedRequest<Dispute | null>(`/api/tasks/${encodeURIComponent(taskId)}/dispute`).then((d) => (d?.id ? d : null));
}

/** The task's latest dispute (open or resolved) or null; for the poster, the assigned tasker and operators. */
export function useDispute(taskId: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.dispute(taskId), queryFn: () => getDispute(taskId), enabled });
}
