import { act, fireEvent, render, screen } from '@testing-library/react';
import { domAnimation, LazyMotion, MotionGlobalConfig } from 'framer-motion';
import { Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Toaster } from '@/components/ui/toaster';
import { appStore } from '@/lib/store';
import { toast, toastsAtom } from '@/lib/toast';

beforeEach(() => {
  MotionGlobalConfig.skipAnimations = true;
  vi.useFakeTimers();
  appStore.set(toastsAtom, []);
});
afterEach(() => vi.useRealTimers());

function renderToaster() {
  return render(
    <Provider store={appStore}>
      <LazyMotion features={domAnimation}>
        <Toaster />
      </LazyMotion>
    </Provider>,
  );
}

const gone = (text: string) => appStore.get(toastsAtom).every((t) => t.title !== text);

describe('toaster', () => {
  it('keeps an error until it is dismissed', () => {
    renderToaster();
    act(() => void toast({ title: 'Payment Error', variant: 'error' }));
    act(() => vi.advanceTimersByTime(60_000));
    expect(gone('Payment Error')).toBe(false);
    expect(screen.getByRole('alert')).toHaveTextContent('Payment Error');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(gone('Payment Error')).toBe(true);
  });

  it('lets other toasts go after their time, but not while hovered or focused', () => {
    renderToaster();
    act(() => void toast({ title: 'Offer submitted', variant: 'success' }));
    const region = screen.getByRole('region', { name: 'Notifications' });
    act(() => vi.advanceTimersByTime(3000));
    fireEvent.mouseEnter(region.querySelector('ol')!);
    act(() => vi.advanceTimersByTime(10_000));
    expect(gone('Offer submitted')).toBe(false);
    fireEvent.mouseLeave(region.querySelector('ol')!);
    act(() => screen.getByRole('button', { name: 'Dismiss notification' }).focus());
    act(() => vi.advanceTimersByTime(10_000));
    expect(gone('Offer submitted')).toBe(false);
    act(() => screen.getByRole('button', { name: 'Dismiss notification' }).blur());
    act(() => vi.advanceTimersByTime(1900));
    expect(gone('Offer submitted')).toBe(false);
    act(() => vi.advanceTimersByTime(200));
    expect(gone('Offer submitted')).toBe(true);
  });

  it('keeps list semantics: each toast is a list item holding its live region', () => {
    renderToaster();
    act(() => void toast({ title: 'Saved', variant: 'success' }));
    expect(screen.getByRole('listitem')).toContainElement(screen.getByRole('status'));
  });
});
