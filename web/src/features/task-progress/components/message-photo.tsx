import { useState } from 'react';

import { Lightbox } from '@/components/ui/lightbox';
import { useMessagePhoto } from '@/features/task-progress/api/message-photo';

/** A photo in a message: its thumbnail, opening the full picture in the lightbox. */
export function MessagePhoto({ photo, from }: { photo: { url: string; thumb_url: string }; from: string }) {
  const [open, setOpen] = useState(false);
  const thumb = useMessagePhoto(photo.thumb_url);
  const full = useMessagePhoto(open ? photo.url : null);
  if (thumb.failed) return <p className="text-xs italic">This photo is not available.</p>;
  const alt = `Photo from ${from}`;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={`Open ${alt.toLowerCase()}`}
        className="mt-1 block overflow-hidden rounded-lg focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        {thumb.src ? (
          <img src={thumb.src} alt={alt} className="max-h-48 w-auto max-w-full object-cover" />
        ) : (
          <span className="block h-32 w-40 animate-pulse bg-slate-200" aria-hidden />
        )}
      </button>
      <Lightbox
        images={[{ src: full.src ?? thumb.src ?? '', alt }]}
        index={open && (full.src ?? thumb.src) ? 0 : null}
        onIndex={() => undefined}
        onClose={() => setOpen(false)}
        label="Photo"
      />
    </>
  );
}
