import { useMutation } from '@tanstack/react-query';

import { request } from '@/lib/http';

export function resendVerification(email: string) {
  return request<{ message?: string }>('/api/auth/resend-verification', { method: 'POST', body: { email: email.trim() } });
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
