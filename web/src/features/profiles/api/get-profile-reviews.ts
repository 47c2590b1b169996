import { useInfiniteQuery } from '@tanstack/react-query';

import type { ProfileReview } from '@/features/profiles/api/get-profile';
import { authorizedRequest } from '@/lib/auth/session';
import type { Page } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export function getProfileReviews(id: string, cursor: string) {
  const params = new URLSearchParams({ limit: '20', cursor });
  return authorizedRequest<Page<ProfileReview>>(`/api/profiles/${encodeURIComponent(id)}/reviews?${params}`);
}

/** The reviews after the profile's first ones, from `after` (the profile's `reviews_next_cursor`), fetched once `enabled`. */
export function useMoreProfileReviews(id: string, after: string | null, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: queryKeys.profileReviews(id, after),
    queryFn: ({ pageParam }) => getProfileReviews(id, pageParam),
    initialPageParam: after ?? '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: enabled && Boolean(after),
  });
}
