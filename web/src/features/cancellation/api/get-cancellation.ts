import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { CancellationStatus } from '@/lib/states';

export type CancellationRequest = {
  id: string;
  task_id: string;
  requested_by: string;
  reason: string;
  status: CancellationStatus;
  created_at: string;
  answered_at: string | null;
};

/** Without an answer a request lapses into acceptance after this long (server: CANCELLATION_ANSWER_WINDOW). */
export const CANCELLATION_ANSWER_WINDOW_MS = 48 * 3600 * 1000;

export function getCancellation(taskId: string): Promise<CancellationRequest | null> {
  return authorizedRequest<CancellationRequest | null>(`/api/tasks/${encodeURIComponent(taskId)}/cancellation`).then((r) => (r?.id ? r : null));
}

/** The pending cancellation request of an assigned task, or null; for its poster and assigned tasker. */
export function useCancellation(taskId: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.cancellation(taskId), queryFn: () => getCancellation(taskId), enabled });
}
