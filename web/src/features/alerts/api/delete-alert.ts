import { useMutation, useQueryClient } from '@tanstack/react-query';

import { alertKeys } from '@/features/alerts/api/get-alerts';
import { authorizedRequest } from '@/lib/auth/session';

export function deleteAlert(id: string): Promise<void> {
  return authorizedRequest<void>(`/api/me/alerts/${id}`, { method: 'DELETE' });
}

export function useDeleteAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAlert,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
