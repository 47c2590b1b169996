import type { ReactNode } from 'react';

export type FaqItem = { q: string; a: ReactNode };

/** Native disclosure widgets: keyboard and screen-reader friendly without script. */
export function FaqList({ items }: { items: FaqItem[] }) {
  return (
    <div className="not-prose divide-y divide-slate-200 rounded-2xl bg-white ring-1 ring-slate-200">
      {items.map((item) => (
        <details key={item.q} className="group p-5">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-slate-900">
            {item.q}
            <span className="text-xl text-brand-700 transition-transform group-open:rotate-45" aria-hidden="true">
              +
            </span>
          </summary>
          <div className="mt-3 text-sm leading-relaxed text-slate-700">{item.a}</div>
        </details>
      ))}
    </div>
  );
}
