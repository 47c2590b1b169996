import { useMutation } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import { signInWithPassword } from '@/lib/auth/actions';
import { EMAIL_PATTERN } from '@/lib/validation';

export const loginInputSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').regex(EMAIL_PATTERN, 'Email is invalid'),
  password: z.string().min(1, 'Password is required'),
});

export type LoginInput = z.infer<typeof loginInputSchema>;

export function login({ email, password }: LoginInput) {
  return signInWithPassword(email.trim(), password);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
