import { useMutation } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import type { Skill, User } from '@/lib/auth/types';
import { request } from '@/lib/http';
import { EMAIL_PATTERN } from '@/lib/validation';

export type AccountType = 'customer' | 'tasker';

export const signupInputSchema = z
  .object({
    account_type: z.enum(['customer', 'tasker']),
    first_name: z.string().trim().min(1, 'First name is required'),
    last_name: z.string().trim().min(1, 'Last name is required'),
    company_name: z.string().optional(),
    email: z.string().trim().min(1, 'Email is required').regex(EMAIL_PATTERN, 'Email is invalid'),
    password: z.string().min(1, 'Password is required').min(6, 'Password must be at least 6 characters'),
    confirm_password: z.string(),
    location: z.string().optional(),
    phone: z.string().optional(),
    bio: z.string().optional(),
    skills: z.array(z.object({ name: z.string(), level: z.number().int().min(1).max(100) })),
    terms: z.boolean(),
  })
  .superRefine((values, ctx) => {
    if (values.confirm_password !== values.password) {
      ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: 'Passwords do not match' });
    }
    if (values.account_type === 'tasker' && values.skills.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['skills'], message: 'Please add at least one skill' });
    }
    if (!values.terms) {
      ctx.addIssue({ code: 'custom', path: ['terms'], message: 'You must agree to the terms and conditions' });
    }
  });

export type SignupInput = z.infer<typeof signupInputSchema>;

export type SignupRequest = {
  email: string;
  password: string;
  first_name: string;
  last_name: string;
  company_name?: string;
  phone?: string;
  location?: string;
  bio?: string;
  account_type: AccountType;
  skills?: Skill[];
  avatar_url?: string;
};

const optional = (value: string | undefined) => (value && value.trim() ? value.trim() : undefined);

export function toSignupRequest(input: SignupInput): SignupRequest {
  return {
    email: input.email.trim(),
    password: input.password,
    first_name: input.first_name.trim(),
    last_name: input.last_name.trim(),
    company_name: optional(input.company_name),
    phone: optional(input.phone),
    location: optional(input.location),
    bio: optional(input.bio),
    account_type: input.account_type,
    skills: input.account_type === 'tasker' ? input.skills : undefined,
  };
}

export function signup(body: SignupRequest) {
  return request<{ user: User; message?: string }>('/api/auth/signup', { method: 'POST', body });
}

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
