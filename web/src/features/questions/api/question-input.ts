import { z } from '@/lib/zod';

/** A question's text. Kept apart from the request that sends it, so that zod loads with the form, not the task page. */
export const questionInputSchema = z.object({
  body: z.string().trim().min(1, 'Please write your question').max(1000, 'Keep your question under 1000 characters'),
});
