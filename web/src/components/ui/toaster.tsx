import { useAtomValue } from 'jotai';
import { AnimatePresence, m } from 'framer-motion';
import { useEffect, useRef, useState } from 'react';

import { cn } from '@/lib/cn';
import { dismissToast, toastsAtom, type Toast } from '@/lib/toast';

const tones = {
  default: 'border-slate-200',
  success: 'border-emerald-300',
  error: 'border-red-300',
};

/** Counts down while `paused` is false; the time left survives pauses. */
function ToastItem({ toast, paused }: { toast: Toast; paused: boolean }) {
  const remaining = useRef(toast.duration);
  useEffect(() => {
    if (paused || !Number.isFinite(remaining.current)) return;
    const started = Date.now();
    const timer = setTimeout(() => dismissToast(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [toast.id, paused]);

  return (
    <m.li
      layout
      initial={{ opacity: 0, y: 16, scale: 0.98 }}
      animate={{ opacity: 1, y: 0, scale: 1 }}
      exit={{ opacity: 0, x: 40 }}
      className="pointer-events-auto"
    >
      <div
        role={toast.variant === 'error' ? 'alert' : 'status'}
        className={cn('flex w-full gap-3 rounded-xl border-l-4 bg-white p-4 shadow-lg ring-1 ring-black/5', tones[toast.variant])}
      >
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold text-slate-900">{toast.title}</p>
          {toast.description && <p className="mt-0.5 text-sm text-slate-600">{toast.description}</p>}
        </div>
        <button
          type="button"
          onClick={() => dismissToast(toast.id)}
          className="h-6 w-6 shrink-0 rounded text-slate-500 hover:bg-slate-100"
          aria-label="Dismiss notification"
        >
          ×
        </button>
      </div>
    </m.li>
  );
}

/** Toasts wait while the pointer is over them or focus is in them, so they can be read (WCAG 2.2.1). */
export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  return (
    <section aria-label="Notifications" className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex justify-center p-4 sm:justify-end">
      <ol
        className="flex w-full max-w-sm flex-col gap-2"
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={() => setHovered(false)}
        onFocus={() => setFocused(true)}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
        }}
      >
        <AnimatePresence initial={false}>
          {toasts.map((t) => (
            <ToastItem key={t.id} toast={t} paused={hovered || focused} />
          ))}
        </AnimatePresence>
      </ol>
    </section>
  );
}
