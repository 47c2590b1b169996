import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { Offer } from '@/lib/marketplace';
import { realtimeKeys } from '@/lib/realtime/cache';

export function getOffers(taskId: string): Promise<Offer[]> {
  return authorizedRequest<Offer[]>(`/api/tasks/${encodeURIComponent(taskId)}/offers`);
}

/** Offers of a task (amounts only for the poster and each offer's tasker); live through the socket. */
export function useOffers(taskId: string, userKey: string | null) {
  return useQuery({
    queryKey: realtimeKeys.offers(taskId),
    queryFn: () => getOffers(taskId),
    meta: { userKey },
  });
}
