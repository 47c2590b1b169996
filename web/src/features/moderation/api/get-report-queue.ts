import { useInfiniteQuery } from '@tanstack/react-query';

import type { ReportTargetType } from '@/components/moderation/report-action';
import type { ReportReason } from '@/features/moderation/api/create-report';
import { authorizedRequest } from '@/lib/auth/session';
import type { Page } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export type QueueStatus = 'open' | 'resolved';

export type AuthorSummary = {
  id: string;
  name: string;
  email: string;
  created_at: string;
  tasks_completed: number;
  open_reports: number;
  actions: number;
  suspended: boolean;
  suspended_until: string | null;
};

/** One reported target: `id` is its oldest report's, the one to resolve. */
export type QueueItem = {
  id: string;
  target: { type: ReportTargetType; id: string; snapshot: string; current: { removed: boolean; text: string | null } };
  author: AuthorSummary;
  reporters: number;
  reasons: ReportReason[];
  status: QueueStatus;
  created_at: string;
};

export function getReportQueue(status: QueueStatus, cursor: string) {
  const params = new URLSearchParams({ status, limit: '20' });
  if (cursor) params.set('cursor', cursor);
  return authorizedRequest<Page<QueueItem>>(`/api/admin/reports?${params}`);
}

/** The moderation queue, oldest first; the console refreshes it when a report arrives. */
export function useReportQueue(status: QueueStatus) {
  return useInfiniteQuery({
    queryKey: queryKeys.adminReportsWith(status),
    queryFn: ({ pageParam }) => getReportQueue(status, pageParam),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: 60_000,
  });
}
