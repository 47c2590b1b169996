import type { ReactNode } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/http';

/** Asks before an action that cannot be undone; stays open (and busy) while the action runs. */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = 'Go back', variant = 'primary', pending, error, onConfirm, onClose }: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  variant?: 'primary' | 'danger';
  pending: boolean;
  error?: unknown;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title} busy={pending}>
      <div className="space-y-4 text-sm text-slate-700">
        {children}
        {Boolean(error) && <Alert>{errorMessage(error, 'Something went wrong. Please try again.')}</Alert>}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose} disabled={pending}>
            {cancelLabel}
          </Button>
          <Button variant={variant} onClick={onConfirm} loading={pending}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
