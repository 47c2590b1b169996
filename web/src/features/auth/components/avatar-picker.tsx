import { useEffect, useId, useState } from 'react';

import { Avatar } from '@/components/ui/avatar';

/** Picks a profile picture (images only) and previews it. */
export function AvatarPicker({ file, onChange, initials }: {
  file: File | null;
  onChange: (file: File | null) => void;
  initials: string;
}) {
  const id = useId();
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

  return (
    <div className="flex items-center gap-4">
      <Avatar src={preview} initials={initials} alt={file ? 'Selected profile picture' : 'No profile picture yet'} size="lg" />
      <div className="space-y-1">
        <label htmlFor={id} className="inline-flex cursor-pointer items-center rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 focus-within:ring-2 focus-within:ring-brand-500 hover:bg-slate-50">
          {file ? 'Change photo' : 'Upload photo'}
          <input
            id={id}
            type="file"
            accept="image/*"
            className="sr-only"
            onChange={(event) => {
              const picked = event.target.files?.[0] ?? null;
              event.target.value = '';
              if (picked && !picked.type.startsWith('image/')) {
                setError('Please choose an image file (JPG, PNG, GIF or WebP).');
                return;
              }
              setError(null);
              onChange(picked);
            }}
          />
        </label>
        {file && (
          <button type="button" className="ml-2 text-sm text-slate-600 underline" onClick={() => onChange(null)}>
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
