import { useQuery } from '@tanstack/react-query';

import type { ReportTargetType } from '@/components/moderation/report-action';
import type { ReportReason } from '@/features/moderation/api/create-report';
import type { AuditItem } from '@/features/moderation/api/get-audit-log';
import type { AuthorSummary } from '@/features/moderation/api/get-report-queue';
import type { ModerationAction } from '@/features/moderation/api/resolve-report';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

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

export type UserRecord = { user: AuthorSummary; suspension_reason: string | null; reports: ReportRecord[]; actions: AuditItem[] };

export function getUserRecord(id: string) {
  return authorizedRequest<UserRecord>(`/api/admin/users/${encodeURIComponent(id)}`);
}

export function useUserRecord(id: string | null) {
  return useQuery({ queryKey: queryKeys.adminUser(id ?? ''), queryFn: () => getUserRecord(id!), enabled: Boolean(id) });
}
