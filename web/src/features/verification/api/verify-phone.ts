import { useMutation, useQueryClient } from '@tanstack/react-query';

import { appStore } from '@/lib/store';
import { authorizedRequest, profileAtom } from '@/lib/auth/session';
import type { Profile } from '@/lib/auth/types';
import { queryKeys } from '@/lib/query-keys';

export async function verifyPhone(code: string): Promise<Profile> {
  const profile = await authorizedRequest<Profile>('/api/me/phone/verify', { method: 'POST', body: { code } });
  appStore.set(profileAtom, profile);
  return profile;
}

/** Confirms the number with the texted code; the profile then says `phone_verified`. */
export function useVerifyPhone() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: verifyPhone,
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.myVerification }),
  });
}
