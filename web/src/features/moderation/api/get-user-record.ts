import { useQuery } from '@tanstack/react-query';

import type { ReportTargetType } from '@/components/moderation/report-action';
import type { ReportReason } from '@/features/moderation/api/create-report';
import type { AuditItem } from '@/features/moderation/api/get-audit-log';
import type { AuthorSummary } from '@/features/moderation/api/get-report-queue';
import type { ModerationAction } from '@/features/moderation/api/resolve-report';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { DisputeStatus, OfferStatus, PaymentStatus, ProviderCallStatus, TaskStatus } from '@/lib/states';

export type ReportRecord = {
  id: string;
  reporter_id: string;
  author_id: string;
  target_type: ReportTargetType;
  target_id: string;
  reason: ReportReason;
  details: string;
  snapshot: string;
  status: 'open' | 'resolved';
  action: ModerationAction | null;
  created_at: string;
  resolved_at: string | null;
};

export type RecordTask = {
  id: string;
  title: string;
  status: TaskStatus;
  budget_cents: number;
  /** `poster` | `tasker`. */
  role: string;
  created_at: string;
};

export type RecordOffer = {
  id: string;
  task_id: string;
  task_title: string;
  amount_cents: number;
  message: string;
  message_removed: boolean;
  status: OfferStatus;
  created_at: string;
};

export type RecordDispute = {
  id: string;
  task_id: string;
  task_title: string;
  opened_by: string;
  reason: string;
  status: DisputeStatus;
  /** `release` | `partial_refund` | `refund` once resolved. */
  outcome: string | null;
  created_at: string;
};

export type RecordPayment = {
  id: string;
  task_id: string;
  task_title: string;
  /** `poster` | `tasker`. */
  role: string;
  status: PaymentStatus;
  amount_cents: number;
  fee_cents: number;
  refunded_cents: number;
  currency: string;
  /** `pending` | `done` | `parked`; null when no transfer is owed. */
  transfer_status: ProviderCallStatus | null;
  /** The transfer waits on an operator's hold; Reinstate lifts it. */
  transfer_on_hold: boolean;
  created_at: string;
};

/** A person's record for operators: each list newest first, at most 100. */
export type UserRecord = {
  user: AuthorSummary;
  suspension_reason: string | null;
  tasks: RecordTask[];
  offers: RecordOffer[];
  disputes: RecordDispute[];
  payments: RecordPayment[];
  reports: ReportRecord[];
  actions: AuditItem[];
};

export function getUserRecord(id: string) {
  return authorizedRequest<UserRecord>(`/api/admin/users/${encodeURIComponent(id)}`);
}

export function useUserRecord(id: string | null) {
  return useQuery({ queryKey: queryKeys.adminUser(id ?? ''), queryFn: () => getUserRecord(id!), enabled: Boolean(id) });
}
