import { useQuery } from '@tanstack/react-query';

import { request } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

export type SignInProviderId = 'google' | 'facebook' | 'apple' | 'sandbox';
export type SignInProvider = { id: SignInProviderId; name: string };

export function getSignInProviders() {
  return request<SignInProvider[]>('/api/auth/providers');
}

/** The providers this server is configured for; none while loading or when the call fails. */
export function useSignInProviders() {
  return useQuery({ queryKey: queryKeys.signInProviders, queryFn: getSignInProviders, staleTime: Infinity, retry: false });
}

/** Where a "Continue with …" button sends the browser: the server answers with a redirect to the provider. */
export function signInStartUrl(provider: SignInProviderId, redirect: string) {
  return `/api/auth/oidc/${provider}/start?${new URLSearchParams({ redirect })}`;
}
