import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { Offer, Page } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

/** Enough for any task the poster can reasonably review; the API answers a page at a time. */
const MAX_PAGES = 10;

export function getOffersPage(taskId: string, cursor?: string | null): Promise<Page<Offer>> {
  const query = new URLSearchParams({ limit: '100' });
  if (cursor) query.set('cursor', cursor);
  return authorizedRequest<Page<Offer>>(`/api/tasks/${encodeURIComponent(taskId)}/offers?${query}`);
}

/** Every offer of a task, following the API's pages (oldest first). */
export async function getOffers(taskId: string): Promise<Offer[]> {
  const offers: Offer[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer: Page<Offer> = await getOffersPage(taskId, cursor);
    offers.push(...answer.items);
    if (!answer.has_more || !answer.next_cursor) break;
    cursor = answer.next_cursor;
  }
  return offers;
}

/** Offers of a task (amounts only for the poster and each offer's tasker); live through the socket. */
export function useOffers(taskId: string, userKey: string | null) {
  return useQuery({
    queryKey: queryKeys.offers(taskId),
    queryFn: () => getOffers(taskId),
    meta: { userKey },
  });
}
