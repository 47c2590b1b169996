import { reloadProfile, authorizedRequest } from '@/lib/auth/session';

/**
 * The API only accepts avatars from signed-in users, but sign-up happens before the email is
 * verified. The picked image is shrunk and kept in this browser until the first sign-in.
 */
const key = (email: string) => `taskhub.pending-avatar.${email.trim().toLowerCase()}`;

export async function shrinkImage(file: File, size = 320): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, size / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('Could not read image'))), 'image/jpeg', 0.88),
  );
}

export async function stashPendingAvatar(email: string, file: File): Promise<void> {
  try {
    const blob = await shrinkImage(file);
    const dataUrl = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob);
    });
    localStorage.setItem(key(email), dataUrl);
  } catch {
    // The avatar is a nicety: the account works without it and it can be set in settings.
  }
}

/** Uploads a stashed sign-up avatar after the first sign-in. Returns true when one was uploaded. */
export async function uploadPendingAvatar(email: string): Promise<boolean> {
  const dataUrl = localStorage.getItem(key(email));
  if (!dataUrl) return false;
  const blob = await (await fetch(dataUrl)).blob();
  const form = new FormData();
  form.append('file', new File([blob], 'avatar.jpg', { type: blob.type || 'image/jpeg' }));
  await authorizedRequest<{ avatar_url: string }>('/api/me/avatar', { method: 'POST', body: form });
  localStorage.removeItem(key(email));
  await reloadProfile();
  return true;
}
