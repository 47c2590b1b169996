import { useState } from 'react';

import { Lightbox } from '@/components/ui/lightbox';
import type { TaskPhoto } from '@/lib/marketplace';

/** A task's photos as a row of thumbnails; each opens the lightbox at that photo. */
export function TaskPhotoGallery({ photos, title }: { photos: TaskPhoto[]; title: string }) {
  const [index, setIndex] = useState<number | null>(null);
  if (photos.length === 0) return null;
  const images = photos.map((photo, i) => ({ src: photo.url, alt: `Photo ${i + 1} of ${photos.length} of ${title}` }));
  return (
    <section aria-label="Task photos" className="mt-6">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Photos</h2>
      <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-6">
        {photos.map((photo, i) => (
          <li key={photo.id}>
            <button
              type="button"
              onClick={() => setIndex(i)}
              aria-label={`Open photo ${i + 1} of ${photos.length}`}
              className="block aspect-square w-full overflow-hidden rounded-lg ring-1 ring-slate-200 hover:ring-brand-500 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              <img src={photo.thumb_url} alt="" loading="lazy" decoding="async" className="h-full w-full object-cover" />
            </button>
          </li>
        ))}
      </ul>
      <Lightbox images={images} index={index} onIndex={setIndex} onClose={() => setIndex(null)} label="Task photos" />
    </section>
  );
}
