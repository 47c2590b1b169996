import { useState } from 'react';

import { cn } from '@/lib/cn';

const sizes = { sm: 'h-8 w-8 text-xs', md: 'h-10 w-10 text-sm', lg: 'h-16 w-16 text-lg', xl: 'h-24 w-24 text-2xl' };
/** The rendered size in CSS pixels, so the browser reserves the box before the image arrives. */
const pixels = { sm: 32, md: 40, lg: 64, xl: 96 };

/** A picture or initials; with an empty `alt` it is decorative (the name is next to it) and hidden from screen readers. */
export function Avatar({ src, initials, alt, size = 'md', className }: {
  src?: string | null;
  initials: string;
  alt: string;
  size?: keyof typeof sizes;
  className?: string;
}) {
  const [broken, setBroken] = useState(false);
  const base = cn('inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full', sizes[size], className);
  if (src && !broken) {
    return (
      <img
        src={src}
        alt={alt}
        width={pixels[size]}
        height={pixels[size]}
        loading="lazy"
        decoding="async"
        className={cn(base, 'object-cover')}
        onError={() => setBroken(true)}
      />
    );
  }
  const label = alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true };
  return (
    <span {...label} className={cn(base, 'bg-brand-100 font-semibold text-brand-800')}>
      {initials}
    </span>
  );
}
