import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { LinkedIdentity } from '@/features/settings/api/get-identities';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export function unlinkIdentity(provider: LinkedIdentity['provider']): Promise<void> {
  return authorizedRequest<void>(`/api/me/identities/${provider}`, { method: 'DELETE' });
}

export function useUnlinkIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlinkIdentity,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.identities }),
  });
}
