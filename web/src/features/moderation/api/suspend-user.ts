import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export type SuspendInput = { reason: string; days: number | null };

export function suspendUser(userId: string, input: SuspendInput) {
  return authorizedRequest<void>(`/api/admin/users/${encodeURIComponent(userId)}/suspend`, { method: 'POST', body: input });
}

export function useSuspendUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, input }: { userId: string; input: SuspendInput }) => suspendUser(userId, input),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminUsers });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminReports });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminAudit });
    },
  });
}
