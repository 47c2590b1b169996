import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { OfferInput } from '@/features/offers/api/offer-input';
import { authorizedRequest } from '@/lib/auth/session';
import type { Offer } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export const toCents = (amount: string) => Math.round(Number(amount) * 100);

export function makeOffer(taskId: string, input: OfferInput) {
  return authorizedRequest<Offer>(`/api/tasks/${encodeURIComponent(taskId)}/offers`, {
    method: 'POST',
    body: { amount_cents: toCents(input.amount), message: input.message },
  });
}

export function useMakeOffer(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: OfferInput) => makeOffer(taskId, input),
    onSuccess: (offer) => {
      client.setQueryData<Offer[]>(queryKeys.offers(taskId), (list = []) =>
        list.some((o) => o.id === offer.id) ? list.map((o) => (o.id === offer.id ? offer : o)) : [...list, offer],
      );
      void client.invalidateQueries({ queryKey: queryKeys.myOffers });
    },
  });
}
