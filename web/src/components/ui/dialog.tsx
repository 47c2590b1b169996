import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal built on the native <dialog>: focus is trapped and Escape closes it, unless `busy`
 * (e.g. a payment is processing), when neither Escape, the backdrop nor × can close it.
 */
export function Dialog({ open, onClose, title, children, busy = false }: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  busy?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const wanted = useRef({ open, busy });
  wanted.current = { open, busy };

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close?.();
  }, [open]);

  const dismiss = () => {
    if (!busy) onClose();
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // The dialog closes only when its owner says so, so Escape cannot bypass `busy`.
        event.preventDefault();
        dismiss();
      }}
      onClose={() => {
        // Chromium lets a repeated Escape close a dialog despite preventDefault: reopen it if it must stay.
        const dialog = ref.current;
        if (wanted.current.open && wanted.current.busy && dialog && !dialog.open) dialog.showModal?.();
        else if (wanted.current.open) onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) dismiss();
      }}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-2xl bg-white p-0 shadow-2xl backdrop:bg-slate-900/50"
    >
      {open && (
        <div className="p-6">
          <div className="mb-4 flex items-start justify-between gap-4">
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            <button
              type="button"
              onClick={dismiss}
              disabled={busy}
              aria-label="Close"
              className="h-8 w-8 rounded-md text-xl text-slate-500 hover:bg-slate-100 disabled:opacity-40"
            >
              ×
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
