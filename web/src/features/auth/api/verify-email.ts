import { useQuery } from '@tanstack/react-query';

import type { User } from '@/lib/auth/types';
import { request } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

export function verifyEmail(token: string) {
  return request<{ user: User }>('/api/auth/verify', { method: 'POST', body: { token } });
}

/** Verification tokens are single-use, so the call is made once per token and never retried. */
export function useVerifyEmail(token: string | null) {
  return useQuery({
    queryKey: queryKeys.verifyEmail(token),
    queryFn: () => verifyEmail(token!),
    enabled: Boolean(token),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
  });
}
