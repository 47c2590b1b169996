import { useMutation } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import { appStore } from '@/lib/store';
import { authorizedRequest, getSession, profileAtom } from '@/lib/auth/session';
import type { Profile, Skill } from '@/lib/auth/types';

export const settingsInputSchema = z.object({
  first_name: z.string().trim().min(1, 'First name is required').max(80, 'First name is too long'),
  last_name: z.string().trim().min(1, 'Last name is required').max(80, 'Last name is too long'),
  display_name: z.string().trim().max(80, 'Display name is too long'),
  phone: z.string().trim().max(40, 'Phone number is too long'),
  location: z.string().trim().max(120, 'Location is too long'),
  bio: z.string().trim().max(2000, 'Bio is too long'),
});

export type SettingsInput = z.infer<typeof settingsInputSchema>;

export async function updateProfile(input: Partial<SettingsInput> & { skills?: Skill[] }): Promise<Profile> {
  if (!getSession()) throw new Error('User not authenticated');
  const profile = await authorizedRequest<Profile>('/api/me/profile', { method: 'PATCH', body: input });
  appStore.set(profileAtom, profile);
  return profile;
}

export function useUpdateProfile() {
  return useMutation({ mutationFn: updateProfile });
}
