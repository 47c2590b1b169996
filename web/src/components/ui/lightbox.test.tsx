import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { Lightbox } from '@/components/ui/lightbox';

const images = [
  { src: '/media/portfolio/a.jpg', alt: 'Deck', caption: 'Deck', description: 'Merbau' },
  { src: '/media/portfolio/b.jpg', alt: 'Fence', caption: 'Fence' },
  { src: '/media/portfolio/c.jpg', alt: 'Shed', caption: 'Shed' },
];

function Harness({ onClose = () => {} }: { onClose?: () => void }) {
  const [index, setIndex] = useState<number | null>(null);
  return (
    <>
      <button type="button" onClick={() => setIndex(0)}>
        Open
      </button>
      <Lightbox
        images={images}
        index={index}
        onIndex={setIndex}
        onClose={() => {
          onClose();
          setIndex(null);
        }}
        label="Portfolio"
      />
    </>
  );
}

// jsdom has no showModal, so the dialog is queried with `hidden: true`.
const dialog = () => screen.getByRole('dialog', { hidden: true });
const shown = () => screen.getByRole('img', { hidden: true }).getAttribute('alt');

describe('lightbox', () => {
  it('steps through the pictures with the arrow keys and the buttons, wrapping around', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(shown()).toBe('Deck');
    expect(screen.getByText('1 of 3')).toBeTruthy();
    expect(screen.getByText('Merbau')).toBeTruthy();
    fireEvent.keyDown(dialog(), { key: 'ArrowRight' });
    expect(shown()).toBe('Fence');
    fireEvent.keyDown(dialog(), { key: 'ArrowLeft' });
    fireEvent.keyDown(dialog(), { key: 'ArrowLeft' });
    expect(shown()).toBe('Shed');
    fireEvent.click(screen.getByRole('button', { name: /Next/, hidden: true }));
    expect(shown()).toBe('Deck');
    fireEvent.click(screen.getByRole('button', { name: /Previous/, hidden: true }));
    expect(shown()).toBe('Shed');
  });

  it('closes on Escape and gives focus back to what opened it', () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    const cancel = new Event('cancel', { cancelable: true });
    fireEvent(dialog(), cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('img', { hidden: true })).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('closes with its × button', () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close', hidden: true }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('lightbox focus', () => {
  it('keeps Tab and Shift+Tab cycling through its own buttons', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const close = screen.getByRole('button', { name: 'Close', hidden: true });
    const next = screen.getByRole('button', { name: /Next/, hidden: true });
    next.focus();
    fireEvent.keyDown(dialog(), { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(dialog(), { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(next);
  });
});
