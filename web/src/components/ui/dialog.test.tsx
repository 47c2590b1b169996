import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { Dialog } from '@/components/ui/dialog';

const cancelEvent = () => new Event('cancel', { cancelable: true });

describe('dialog', () => {
  it('names each dialog by its own title, even with two on one page', () => {
    render(
      <>
        <Dialog open onClose={() => {}} title="First">
          one
        </Dialog>
        <Dialog open onClose={() => {}} title="Second">
          two
        </Dialog>
      </>,
    );
    // jsdom never opens a <dialog> (no showModal), so names are read through aria-labelledby by hand.
    const titleOf = (dialog: HTMLElement) => document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent;
    const [first, second] = screen.getAllByRole('dialog', { hidden: true });
    expect(titleOf(first)).toBe('First');
    expect(titleOf(second)).toBe('Second');
  });

  it('closes on Escape', () => {
    const onClose = vi.fn();
    render(
      <Dialog open onClose={onClose} title="Report">
        body
      </Dialog>,
    );
    const event = cancelEvent();
    fireEvent(screen.getByRole('dialog', { hidden: true }), event);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
  });

  it('cannot be closed by Escape, the backdrop or × while busy', () => {
    const onClose = vi.fn();
    render(
      <Dialog open busy onClose={onClose} title="Accept offer and pay">
        body
      </Dialog>,
    );
    const dialog = screen.getByRole('dialog', { hidden: true });
    const event = cancelEvent();
    fireEvent(dialog, event);
    expect(event.defaultPrevented).toBe(true);
    fireEvent.click(dialog);
    expect(screen.getByRole('button', { name: 'Close', hidden: true })).toBeDisabled();
    expect(onClose).not.toHaveBeenCalled();
  });
});
