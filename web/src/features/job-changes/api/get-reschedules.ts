import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';
import type { RescheduleStatus } from '@/lib/states';

export type Reschedule = {
  id: string;
  task_id: string;
  proposed_by: string;
  due_date: string;
  window: string | null;
  note: string | null;
  status: RescheduleStatus;
  expires_at: string;
  created_at: string;
  answered_at: string | null;
};

export function getReschedules(taskId: string) {
  return authorizedRequest<{ items: Reschedule[] }>(`/api/tasks/${encodeURIComponent(taskId)}/reschedules`).then((page) => page.items);
}

/** The task's date proposals, oldest first; for its poster and assigned tasker. */
export function useReschedules(taskId: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.reschedules(taskId), queryFn: () => getReschedules(taskId), enabled });
}
