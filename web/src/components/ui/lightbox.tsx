import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';

export type LightboxImage = { src: string; alt: string; caption?: string | null; description?: string | null };

/**
 * A full-screen viewer for a set of pictures, on the native modal <dialog>: the rest of the page
 * is inert (focus stays inside), Escape or × closes it, ← and → (and the buttons) step through
 * the pictures, and focus returns to whatever opened it.
 */
export function Lightbox({
  images,
  index,
  onIndex,
  onClose,
  label,
}: {
  images: LightboxImage[];
  /** The picture shown; null when closed. */
  index: number | null;
  onIndex: (index: number) => void;
  onClose: () => void;
  /** What the pictures are, for the dialog's name ("Portfolio", "Task photos"). */
  label: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  const open = index !== null && images.length > 0;
  const current = open ? images[Math.min(index, images.length - 1)] : null;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      // Before showModal moves focus into the dialog (to its first button, Close).
      opener.current = document.activeElement;
      dialog.showModal?.();
    }
    if (!open && dialog.open) dialog.close?.();
    if (!open && opener.current instanceof HTMLElement) {
      opener.current.focus();
      opener.current = null;
    }
  }, [open]);

  const step = (by: number) => {
    if (index === null || images.length < 2) return;
    onIndex((index + by + images.length) % images.length);
  };

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClose={() => {
        if (open) onClose();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Tab') {
          // The modal makes the page inert, but Tab past the last button would leave for the
          // browser's own UI: keep it cycling through the lightbox's buttons.
          const buttons = Array.from(ref.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? []);
          const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
          const next = event.shiftKey ? (at <= 0 ? buttons.length - 1 : at - 1) : (at + 1) % buttons.length;
          if (buttons.length > 0) {
            event.preventDefault();
            buttons[next].focus();
          }
        } else if (event.key === 'ArrowRight') {
          event.preventDefault();
          step(1);
        } else if (event.key === 'ArrowLeft') {
          event.preventDefault();
          step(-1);
        }
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
      className="m-auto max-h-[100dvh] w-[min(64rem,100vw)] max-w-none rounded-xl bg-slate-950 p-0 text-white backdrop:bg-slate-950/85"
    >
      {current && index !== null && (
        <div className="flex flex-col gap-3 p-3 text-white sm:p-6">
          <div className="flex items-center justify-between gap-4">
            <h2 id={titleId} className="text-base font-semibold">
              {label}
              {images.length > 1 && (
                <span className="ml-2 font-normal text-slate-300">
                  {index + 1} of {images.length}
                </span>
              )}
            </h2>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="inline-flex h-11 w-11 items-center justify-center rounded-full bg-white/10 hover:bg-white/20 focus-visible:outline focus-visible:outline-2 focus-visible:outline-white"
            >
              <X aria-hidden className="h-6 w-6" />
            </button>
          </div>
          <figure className="flex flex-col items-center gap-3">
            <img
              src={current.src}
              alt={current.alt}
              className="max-h-[70dvh] w-auto max-w-full rounded-lg object-contain"
            />
            {(current.caption || current.description) && (
              <figcaption className="max-w-prose text-center">
                {current.caption && <span className="block font-semibold">{current.caption}</span>}
                {current.description && <span className="mt-1 block text-sm text-slate-200">{current.description}</span>}
              </figcaption>
            )}
          </figure>
          {images.length > 1 && (
            <div className="flex justify-center gap-3">
              <button
                type="button"
                onClick={() => step(-1)}
                className="inline-flex h-11 items-center gap-1 rounded-full bg-white/10 px-4 text-sm font-semibold hover:bg-white/20 focus-visible:outline focus-visible:outline-2 focus-visible:outline-white"
              >
                <ChevronLeft aria-hidden className="h-5 w-5" /> Previous
              </button>
              <button
                type="button"
                onClick={() => step(1)}
                className="inline-flex h-11 items-center gap-1 rounded-full bg-white/10 px-4 text-sm font-semibold hover:bg-white/20 focus-visible:outline focus-visible:outline-2 focus-visible:outline-white"
              >
                Next <ChevronRight aria-hidden className="h-5 w-5" />
              </button>
            </div>
          )}
        </div>
      )}
    </dialog>
  );
}
