import { useMutation } from '@tanstack/react-query';

import { appStore } from '@/lib/store';
import { authorizedRequest, profileAtom } from '@/lib/auth/session';
import type { Profile } from '@/lib/auth/types';

export async function becomeTasker(): Promise<Profile> {
  const profile = await authorizedRequest<Profile>('/api/me/become-tasker', { method: 'POST' });
  appStore.set(profileAtom, profile);
  return profile;
}

export function useBecomeTasker() {
  return useMutation({ mutationFn: becomeTasker });
}
