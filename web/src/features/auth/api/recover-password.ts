import { useMutation } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import { request } from '@/lib/http';
import { EMAIL_PATTERN } from '@/lib/validation';

export const recoverInputSchema = z.object({
  email: z.string().trim().regex(EMAIL_PATTERN, 'Please enter a valid email address'),
});

export function recoverPassword({ email }: { email: string }) {
  return request<void>('/api/auth/recover', { method: 'POST', body: { email: email.trim() } });
}

export function useRecoverPassword() {
  return useMutation({ mutationFn: recoverPassword });
}
