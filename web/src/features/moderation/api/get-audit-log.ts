import { useInfiniteQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { Page } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export type AuditAction = 'dismiss' | 'remove' | 'warn' | 'suspend' | 'reinstate' | 'dispute_decision' | 'provider_call_retry';
export type AuditTargetType = 'task' | 'user' | 'offer' | 'question' | 'message' | 'review' | 'dispute' | 'provider_call';
export type AuditItem = {
  id: string;
  operator: { id: string; email: string };
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  note: string;
  created_at: string;
  /** Tried and refused (the operator is part of the case): nothing happened. */
  refused: boolean;
};

export function getAuditLog(cursor: string) {
  const params = new URLSearchParams({ limit: '50' });
  if (cursor) params.set('cursor', cursor);
  return authorizedRequest<Page<AuditItem>>(`/api/admin/audit?${params}`);
}

/** Every operator action, newest first, a page at a time. */
export function useAuditLog() {
  return useInfiniteQuery({
    queryKey: queryKeys.adminAudit,
    queryFn: ({ pageParam }) => getAuditLog(pageParam),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
