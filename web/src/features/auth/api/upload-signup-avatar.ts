import { useMutation } from '@tanstack/react-query';

import { request } from '@/lib/http';

export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

/** Sign-up pictures are uploaded before the account exists; the returned URL goes with the sign-up. */
export async function uploadSignupAvatar(file: File): Promise<{ avatar_url: string }> {
  if (!file.type.startsWith('image/')) throw new Error('Please choose an image file (JPG, PNG, GIF or WebP).');
  if (file.size > MAX_AVATAR_BYTES) throw new Error('That image is larger than 5 MB. Please choose a smaller one.');
  const form = new FormData();
  form.append('file', file);
  return request<{ avatar_url: string }>('/api/uploads/avatar', { method: 'POST', body: form });
}

export function useUploadSignupAvatar() {
  return useMutation({ mutationFn: uploadSignupAvatar });
}
