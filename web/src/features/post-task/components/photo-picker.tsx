import { ImagePlus, X } from 'lucide-react';
import { useEffect, useId, useMemo } from 'react';

import { MAX_TASK_PHOTOS } from '@/lib/marketplace';

export type PickerPhoto = { key: string; src: string; label: string };

/**
 * Up to six photos of the task: thumbnails with a Remove button each, and a file input that
 * takes several at once. The owner decides what picking and removing do (keep files until the
 * task is posted, or upload at once).
 */
export function PhotoPicker({
  photos,
  onAdd,
  onRemove,
  busy = false,
  error,
}: {
  photos: PickerPhoto[];
  onAdd: (files: File[]) => void;
  onRemove: (key: string) => void;
  busy?: boolean;
  error?: string | null;
}) {
  const inputId = useId();
  const room = MAX_TASK_PHOTOS - photos.length;
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">
        Photos <span className="font-normal text-slate-500">(optional, up to {MAX_TASK_PHOTOS})</span>
      </legend>
      <p id={`${inputId}-hint`} className="text-xs text-slate-500">
        Show taskers what the job looks like. Location data is removed from every photo.
      </p>
      {photos.length > 0 && (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-6" aria-label="Chosen photos">
          {photos.map((photo, i) => (
            <li key={photo.key} className="relative">
              <img src={photo.src} alt={`Photo ${i + 1}: ${photo.label}`} className="aspect-square w-full rounded-lg object-cover ring-1 ring-slate-200" />
              <button
                type="button"
                onClick={() => onRemove(photo.key)}
                disabled={busy}
                aria-label={`Remove photo ${i + 1}`}
                className="absolute right-1 top-1 inline-flex h-7 w-7 items-center justify-center rounded-full bg-slate-900/75 text-white hover:bg-slate-900 disabled:opacity-50"
              >
                <X aria-hidden className="h-4 w-4" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {room > 0 && (
        <label
          htmlFor={inputId}
          className="inline-flex cursor-pointer items-center gap-2 rounded-lg border border-dashed border-slate-400 px-3 py-2 text-sm font-semibold text-slate-700 focus-within:ring-2 focus-within:ring-brand-200 hover:bg-slate-50"
        >
          <ImagePlus aria-hidden className="h-4 w-4" /> Add photos
          <input
            id={inputId}
            type="file"
            accept="image/jpeg,image/png,image/gif,image/webp"
            multiple
            disabled={busy}
            aria-describedby={`${inputId}-hint`}
            className="sr-only"
            onChange={(event) => {
              const files = Array.from(event.target.files ?? []).slice(0, room);
              event.target.value = '';
              if (files.length > 0) onAdd(files);
            }}
          />
        </label>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** Object URLs for files chosen but not yet uploaded, revoked when they change or on unmount. */
export function useLocalPreviews(files: File[]): PickerPhoto[] {
  const previews = useMemo(() => files.map((file, i) => ({ key: `${i}-${file.name}-${file.size}`, src: URL.createObjectURL(file), label: file.name })), [files]);
  useEffect(() => () => previews.forEach((preview) => URL.revokeObjectURL(preview.src)), [previews]);
  return previews;
}
