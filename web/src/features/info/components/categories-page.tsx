import type { ReactNode } from 'react';
import { usePageTitle } from '@/lib/use-page-title';

/** The grid itself comes from the categories feature; the route composes both. */
export function CategoriesPage({ children }: { children: ReactNode }) {
  usePageTitle('Browse by Category');
  return (
    <div>
      <section className="bg-gradient-to-br from-brand-800 to-brand-600 text-white">
        <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Browse by Category</h1>
          <p className="mt-3 max-w-2xl text-lg text-brand-50">
            Sixteen kinds of help, from a quick clean to a full house move. Pick a category to see open tasks.
          </p>
        </div>
      </section>
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">{children}</div>
    </div>
  );
}
