import { useMutation, useQueryClient } from '@tanstack/react-query';

import { type AlertInput, type TaskAlert } from '@/features/alerts/api/get-alerts';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function createAlert(input: AlertInput): Promise<TaskAlert> {
  return authorizedRequest<TaskAlert>('/api/me/alerts', { method: 'POST', body: input });
}

export function updateAlert(id: string, input: Partial<AlertInput>): Promise<TaskAlert> {
  return authorizedRequest<TaskAlert>(`/api/me/alerts/${id}`, { method: 'PATCH', body: input });
}

/** Creates (no id) or changes (id) an alert, then refreshes the alerts list. */
export function useSaveAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: Partial<AlertInput> }) =>
      id ? updateAlert(id, input) : createAlert(input as AlertInput),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.alerts }),
  });
}
