import type { ReactNode } from 'react';
import { usePageTitle } from '@/lib/use-page-title';

/** Layout of the static and informational pages. */
export function ContentPage({ title, eyebrow, intro, updated, children, aside }: {
  title: string;
  eyebrow?: string;
  intro?: ReactNode;
  updated?: string;
  children: ReactNode;
  aside?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <div>
      <section className="bg-gradient-to-br from-brand-800 to-brand-600 text-white">
        <div className="mx-auto max-w-5xl px-4 py-14 sm:px-6 sm:py-16 lg:px-8">
          {eyebrow && <p className="text-sm font-semibold uppercase tracking-wider text-brand-100">{eyebrow}</p>}
          <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
          {intro && <div className="mt-4 max-w-3xl text-lg text-brand-50">{intro}</div>}
          {updated && <p className="mt-4 text-sm text-brand-100">Last updated: {updated}</p>}
        </div>
      </section>
      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_16rem] lg:px-8">
        <div className="prose-taskhub min-w-0">{children}</div>
        {aside && <aside className="space-y-4">{aside}</aside>}
      </div>
    </div>
  );
}
