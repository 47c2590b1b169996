import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export type LinkedIdentity = {
  provider: 'google' | 'facebook' | 'apple' | 'sandbox';
  name: string;
  email: string | null;
  linked_at: string;
};
export type LinkedIdentities = { items: LinkedIdentity[]; has_password: boolean };

export function getIdentities() {
  return authorizedRequest<LinkedIdentities>('/api/me/identities');
}

export function useIdentities() {
  return useQuery({ queryKey: queryKeys.identities, queryFn: getIdentities });
}
