import { useAtomValue } from 'jotai';
import { AnimatePresence, m } from 'framer-motion';
import { useEffect } from 'react';

import { cn } from '@/lib/cn';
import { dismissToast, toastsAtom, type Toast } from '@/lib/toast';

const tones = {
  default: 'border-slate-200',
  success: 'border-emerald-300',
  error: 'border-red-300',
};

function ToastItem({ toast }: { toast: Toast }) {
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(toast.id), toast.duration);
    return () => clearTimeout(timer);
  }, [toast.id, toast.duration]);

  return (
    <m.li
      layout
      initial={{ opacity: 0, y: 16, scale: 0.98 }}
      animate={{ opacity: 1, y: 0, scale: 1 }}
      exit={{ opacity: 0, x: 40 }}
      role={toast.variant === 'error' ? 'alert' : 'status'}
      className={cn('pointer-events-auto flex w-full gap-3 rounded-xl border-l-4 bg-white p-4 shadow-lg ring-1 ring-black/5', tones[toast.variant])}
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
    </m.li>
  );
}

export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  return (
    <section aria-label="Notifications" className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex justify-center p-4 sm:justify-end">
      <ol className="flex w-full max-w-sm flex-col gap-2">
        <AnimatePresence initial={false}>
          {toasts.map((t) => (
            <ToastItem key={t.id} toast={t} />
          ))}
        </AnimatePresence>
      </ol>
    </section>
  );
}
