import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

import { cn } from '@/lib/cn';

export type TabItem<T extends string> = { value: T; label: ReactNode };

/** An accessible tab list: arrow keys, Home and End move between tabs. */
export function Tabs<T extends string>({ label, items, value, onChange, children, className }: {
  label: string;
  items: TabItem<T>[];
  value: T;
  onChange: (value: T) => void;
  children: ReactNode;
  className?: string;
}) {
  const baseId = useId();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const index = items.findIndex((item) => item.value === value);

  const onKeyDown = (event: KeyboardEvent) => {
    let next = -1;
    if (event.key === 'ArrowRight') next = (index + 1) % items.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    if (next < 0) return;
    event.preventDefault();
    onChange(items[next].value);
    refs.current[next]?.focus();
  };

  return (
    <div className={className}>
      <div role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto rounded-xl bg-slate-100 p-1" onKeyDown={onKeyDown}>
        {items.map((item, i) => {
          const selected = item.value === value;
          return (
            <button
              key={item.value}
              ref={(el) => {
                refs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${item.value}`}
              aria-selected={selected}
              aria-controls={`${baseId}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(item.value)}
              className={cn(
                'flex-1 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-semibold transition-colors',
                selected ? 'bg-white text-brand-800 shadow-sm' : 'text-slate-600 hover:text-slate-900',
              )}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${value}`} className="mt-4">
        {children}
      </div>
    </div>
  );
}
