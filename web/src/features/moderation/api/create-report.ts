import { useMutation } from '@tanstack/react-query';

import type { ReportTarget } from '@/components/moderation/report-action';
import { authorizedRequest } from '@/lib/auth/session';

export type ReportReason = 'spam' | 'scam' | 'offensive' | 'off_platform' | 'unsafe' | 'other';

export const REPORT_REASONS: { value: ReportReason; label: string }[] = [
  { value: 'spam', label: 'Spam' },
  { value: 'scam', label: 'Scam or fraud' },
  { value: 'offensive', label: 'Offensive or abusive' },
  { value: 'off_platform', label: 'Taking payment or contact off Taskhub' },
  { value: 'unsafe', label: 'Unsafe or illegal' },
  { value: 'other', label: 'Something else' },
];

export type ReportInput = { target: ReportTarget; reason: ReportReason; details?: string | null };
export type ReportView = {
  id: string;
  status: 'open' | 'resolved';
  target: ReportTarget;
  reason: ReportReason;
  created_at: string;
};

export function createReport(input: ReportInput): Promise<ReportView> {
  return authorizedRequest<ReportView>('/api/reports', { method: 'POST', body: input });
}

export function useCreateReport() {
  return useMutation({ mutationFn: createReport });
}
