import { keepPreviousData, useQuery } from '@tanstack/react-query';

import type { AuthorSummary } from '@/features/moderation/api/get-report-queue';
import { authorizedRequest } from '@/lib/auth/session';
import type { Page } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export function searchUsers(query: string) {
  const params = new URLSearchParams({ q: query, limit: '20' });
  return authorizedRequest<Page<AuthorSummary>>(`/api/admin/users?${params}`);
}

/** People whose name or email contains `query`, once it is not empty. */
export function useUserSearch(query: string) {
  return useQuery({
    queryKey: queryKeys.adminUserSearch(query),
    queryFn: () => searchUsers(query),
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
  });
}
