import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { Offer } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export function withdrawOffer(offerId: string) {
  return authorizedRequest<Offer>(`/api/offers/${encodeURIComponent(offerId)}/withdraw`, { method: 'POST' });
}

export function useWithdrawOffer(taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: withdrawOffer,
    onSuccess: (_offer, offerId) => {
      client.setQueryData<Offer[]>(queryKeys.offers(taskId), (list) =>
        list?.map((o) => (o.id === offerId ? { ...o, status: 'withdrawn' } : o)),
      );
      void client.invalidateQueries({ queryKey: queryKeys.myOffers });
    },
  });
}
