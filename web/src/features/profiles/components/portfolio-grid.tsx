import { useState } from 'react';

import { Lightbox } from '@/components/ui/lightbox';
import type { PortfolioItem } from '@/features/profiles/api/get-profile';

/** The Portfolio tab: a grid of pictures of past work; each opens the lightbox at that item. */
export function PortfolioGrid({ items, name }: { items: PortfolioItem[]; name: string }) {
  const [index, setIndex] = useState<number | null>(null);
  const shown = items.filter((item) => item.image_url ?? item.image);
  const images = shown.map((item) => ({
    src: (item.image_url ?? item.image)!,
    alt: item.title,
    caption: item.title,
    description: item.description,
  }));
  return (
    <>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label={`${name}'s portfolio`}>
        {shown.map((item, i) => (
          <li key={item.id} className="overflow-hidden rounded-xl bg-white ring-1 ring-slate-200">
            <button
              type="button"
              onClick={() => setIndex(i)}
              className="block w-full text-left focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              <img
                src={item.thumb_url ?? item.image_url ?? item.image ?? ''}
                alt=""
                width={480}
                height={360}
                loading="lazy"
                decoding="async"
                className="aspect-[4/3] h-auto w-full object-cover"
              />
              <span className="block p-3">
                <span className="block text-sm font-semibold text-slate-900">{item.title}</span>
                {item.description && <span className="mt-0.5 line-clamp-2 block text-xs text-slate-600">{item.description}</span>}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <Lightbox images={images} index={index} onIndex={setIndex} onClose={() => setIndex(null)} label="Portfolio" />
    </>
  );
}
