import { z } from '@/lib/zod';

/**
 * Amount typed in dollars (at least the $5 minimum budget) and a comment: the server requires both.
 * Kept apart from the requests that send it, so that zod loads with the offer form, not the task page.
 */
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

