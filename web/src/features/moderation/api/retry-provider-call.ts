import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function retryProviderCall(id: string) {
  return authorizedRequest<void>(`/api/admin/provider-calls/${encodeURIComponent(id)}/retry`, { method: 'POST' });
}

export function useRetryProviderCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryProviderCall,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminProviderCalls });
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminAudit });
    },
  });
}
