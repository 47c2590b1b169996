import type { ReportTargetType } from '@/components/moderation/report-action';
import { REPORT_REASONS, type ReportReason } from '@/features/moderation/api/create-report';
import type { AuditAction } from '@/features/moderation/api/get-audit-log';

export const reasonLabel = (reason: ReportReason) => REPORT_REASONS.find((r) => r.value === reason)?.label ?? reason;

export const TARGET_LABELS: Record<ReportTargetType, string> = {
  task: 'Task',
  user: 'Profile',
  offer: 'Offer message',
  question: 'Question',
  message: 'Message',
  review: 'Review',
};

export const ACTION_LABELS: Record<AuditAction, string> = {
  dismiss: 'Dismissed reports',
  remove: 'Removed content',
  warn: 'Warned',
  suspend: 'Suspended',
  reinstate: 'Reinstated',
  dispute_decision: 'Decided a dispute',
  provider_call_retry: 'Retried a provider call',
};

export const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' });

export const date = (iso: string) => new Date(iso).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });
