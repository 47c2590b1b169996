import type { ReactNode } from 'react';
import { usePageTitle } from '@/lib/use-page-title';

/** Holds a marketplace route until web part 2 gives it its live screen. */
export function MarketplacePlaceholder({ title, children }: { title: string; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <div className="mt-4 text-slate-600">{children}</div>
    </div>
  );
}
