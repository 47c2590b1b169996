import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toCents } from '@/features/offers/api/make-offer';
import type { OfferInput } from '@/features/offers/api/offer-input';
import { authorizedRequest } from '@/lib/auth/session';
import type { Offer } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export function updateOffer(offerId: string, input: OfferInput) {
  return authorizedRequest<Offer>(`/api/offers/${encodeURIComponent(offerId)}`, {
    method: 'PATCH',
    body: { amount_cents: toCents(input.amount), message: input.message },
  });
}

export function useUpdateOffer(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ offerId, input }: { offerId: string; input: OfferInput }) => updateOffer(offerId, input),
    onSuccess: (offer) => {
      client.setQueryData<Offer[]>(queryKeys.offers(taskId), (list) => list?.map((o) => (o.id === offer.id ? offer : o)));
      void client.invalidateQueries({ queryKey: queryKeys.myOffers });
    },
  });
}
