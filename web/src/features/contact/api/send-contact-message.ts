import { useMutation } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import { request } from '@/lib/http';
import { EMAIL_PATTERN } from '@/lib/validation';

export const contactInputSchema = z.object({
  name: z.string().trim().min(1, 'Name is required'),
  email: z.string().trim().min(1, 'Email is required').regex(EMAIL_PATTERN, 'Email is invalid'),
  subject: z.string().trim().min(1, 'Subject is required'),
  message: z.string().trim().min(1, 'Message is required'),
});

export type ContactInput = z.infer<typeof contactInputSchema>;

export function sendContactMessage(input: ContactInput) {
  return request<void>('/api/contact', { method: 'POST', body: input });
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
