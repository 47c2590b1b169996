import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import { authorizedRequest } from '@/lib/auth/session';
import type { Offer } from '@/lib/marketplace';
import { realtimeKeys } from '@/lib/realtime/cache';

/** Amount typed in dollars (at least the $5 minimum budget) and a comment: the server requires both. */
export const offerInputSchema = z.object({
  amount: z
    .string()
    .trim()
    .min(1, 'Please enter your offer amount')
    .refine((v) => /^\d+(\.\d{1,2})?$/.test(v) && Number(v) >= 5, 'Please enter a valid amount of at least $5'),
  message: z
    .string()
    .trim()
    .min(1, 'Please add a comment to your offer')
    .max(2000, 'Keep your message under 2000 characters'),
});
export type OfferInput = z.infer<typeof offerInputSchema>;

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
      client.setQueryData<Offer[]>(realtimeKeys.offers(taskId), (list = []) =>
        list.some((o) => o.id === offer.id) ? list.map((o) => (o.id === offer.id ? offer : o)) : [...list, offer],
      );
      void client.invalidateQueries({ queryKey: realtimeKeys.myOffers });
    },
  });
}
