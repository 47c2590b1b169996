import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function reinstateUser(userId: string, note: string) {
  return authorizedRequest<void>(`/api/admin/users/${encodeURIComponent(userId)}/reinstate`, {
    method: 'POST',
    body: { note: note || null },
  });
}

export function useReinstateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, note }: { userId: string; note: string }) => reinstateUser(userId, note),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminUsers });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminReports });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminAudit });
    },
  });
}
