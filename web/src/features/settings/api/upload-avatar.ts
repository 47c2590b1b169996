import { useMutation } from '@tanstack/react-query';

import { authorizedRequest, reloadProfile } from '@/lib/auth/session';

export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

export async function uploadAvatar(file: File): Promise<{ avatar_url: string }> {
  if (!file.type.startsWith('image/')) throw new Error('Please choose an image file (JPG, PNG, GIF or WebP).');
  if (file.size > MAX_AVATAR_BYTES) throw new Error('That image is larger than 5 MB. Please choose a smaller one.');
  const form = new FormData();
  form.append('file', file);
  const result = await authorizedRequest<{ avatar_url: string }>('/api/me/avatar', { method: 'POST', body: form });
  await reloadProfile();
  return result;
}

export function useUploadAvatar() {
  return useMutation({ mutationFn: uploadAvatar });
}
