import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { ReportView } from '@/features/moderation/api/create-report';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export type ModerationAction = 'dismiss' | 'remove' | 'warn' | 'suspend';
export type ResolveReportInput = { action: ModerationAction; note: string; suspend_days?: number | null };

export function resolveReport(reportId: string, input: ResolveReportInput) {
  return authorizedRequest<ReportView>(`/api/admin/reports/${encodeURIComponent(reportId)}/resolve`, { method: 'POST', body: input });
}

export function useResolveReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reportId, input }: { reportId: string; input: ResolveReportInput }) => resolveReport(reportId, input),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminReports });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminUsers });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminAudit });
    },
  });
}
