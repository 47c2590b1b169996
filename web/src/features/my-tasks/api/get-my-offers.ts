import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { Offer, TaskSummary } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export type MyOffer = Offer & { task: TaskSummary };

export function getMyOffers(): Promise<MyOffer[]> {
  return authorizedRequest<{ items: MyOffer[] } | MyOffer[]>('/api/me/offers').then((r) => (Array.isArray(r) ? r : r.items));
}

export function useMyOffers() {
  return useQuery({ queryKey: queryKeys.myOffers, queryFn: getMyOffers });
}
