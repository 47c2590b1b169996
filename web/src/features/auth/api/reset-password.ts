import { useMutation } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import { request } from '@/lib/http';

export const resetInputSchema = z
  .object({
    password: z.string().min(1, 'Password is required').min(6, 'Password must be at least 6 characters'),
    confirm_password: z.string(),
  })
  .refine((values) => values.password === values.confirm_password, {
    path: ['confirm_password'],
    message: 'Passwords do not match',
  });

export function resetPassword({ token, password }: { token: string; password: string }) {
  return request<unknown>('/api/auth/reset', { method: 'POST', body: { token, password } });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
