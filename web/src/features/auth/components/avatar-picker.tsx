import { useEffect, useId, useState } from 'react';

import { Avatar } from '@/components/ui/avatar';
import { Spinner } from '@/components/ui/spinner';
import { useUploadSignupAvatar } from '@/features/auth/api/upload-signup-avatar';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

/** Picks a profile picture (images only), previews it and uploads it straight away. */
export function AvatarPicker({ onChange, initials }: {
  onChange: (avatarUrl: string | null) => void;
  initials: string;
}) {
  const id = useId();
  const upload = useUploadSignupAvatar();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const pick = async (picked: File | null) => {
    if (!picked) return;
    if (!picked.type.startsWith('image/')) {
      setError('Please choose an image file (JPG, PNG, GIF or WebP).');
      return;
    }
    setError(null);
    setFile(picked);
    onChange(null);
    try {
      const { avatar_url } = await upload.mutateAsync(picked);
      onChange(avatar_url);
      toast({ title: 'Avatar uploaded', description: 'Your profile picture has been uploaded successfully.', variant: 'success' });
    } catch (cause) {
      setFile(null);
      toast({ title: 'Upload failed', description: errorMessage(cause, 'Failed to upload profile picture. Please try again.'), variant: 'error' });
    }
  };

  return (
    <div className="flex items-center gap-4">
      <Avatar src={preview} initials={initials} alt={file ? 'Selected profile picture' : 'No profile picture yet'} size="lg" />
      <div className="space-y-1">
        <label htmlFor={id} className="inline-flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 focus-within:ring-2 focus-within:ring-brand-500 hover:bg-slate-50">
          {upload.isPending && <Spinner size="sm" />}
          {file ? 'Change photo' : 'Upload photo'}
          <input
            id={id}
            type="file"
            accept="image/*"
            className="sr-only"
            disabled={upload.isPending}
            onChange={(event) => {
              const picked = event.target.files?.[0] ?? null;
              event.target.value = '';
              void pick(picked);
            }}
          />
        </label>
        {file && !upload.isPending && (
          <button
            type="button"
            className="ml-2 text-sm text-slate-600 underline"
            onClick={() => {
              setFile(null);
              onChange(null);
            }}
          >
            Remove
          </button>
        )}
        <p className="text-xs text-slate-500">Profile picture (optional). Images only, up to 5 MB.</p>
        {error && (
          <p role="alert" className="text-sm text-red-600">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
