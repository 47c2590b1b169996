import { act, fireEvent, render, screen } from '@testing-library/react';
import { domAnimation, LazyMotion, MotionGlobalConfig } from 'framer-motion';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CAROUSEL_INTERVAL_MS, Testimonials } from '@/features/home/components/testimonials';

const current = () => screen.getByRole('button', { current: true }).getAttribute('aria-label');

beforeEach(() => {
  MotionGlobalConfig.skipAnimations = true;
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

function renderCarousel() {
  return render(
    <LazyMotion features={domAnimation}>
      <Testimonials />
    </LazyMotion>,
  );
}

describe('testimonial carousel', () => {
  it('advances every 8 seconds', () => {
    renderCarousel();
    expect(current()).toBe('Show testimonial 1');
    act(() => vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS - 10));
    expect(current()).toBe('Show testimonial 1');
    act(() => vi.advanceTimersByTime(10));
    expect(current()).toBe('Show testimonial 2');
  });

  it('has previous, next and dot controls that wrap around', () => {
    renderCarousel();
    fireEvent.click(screen.getByRole('button', { name: 'Previous testimonial' }));
    expect(current()).toBe('Show testimonial 4');
    fireEvent.click(screen.getByRole('button', { name: 'Next testimonial' }));
    expect(current()).toBe('Show testimonial 1');
    fireEvent.click(screen.getByRole('button', { name: 'Show testimonial 3' }));
    expect(current()).toBe('Show testimonial 3');
  });

  it('changes slide on a swipe of 150 px or more, not less', () => {
    const { container } = renderCarousel();
    const area = container.querySelector('.touch-pan-y')!;
    fireEvent.pointerDown(area, { clientX: 300 });
    fireEvent.pointerUp(area, { clientX: 151 });
    expect(current()).toBe('Show testimonial 1');
    fireEvent.pointerDown(area, { clientX: 300 });
    fireEvent.pointerUp(area, { clientX: 150 });
    expect(current()).toBe('Show testimonial 2');
    fireEvent.pointerDown(area, { clientX: 100 });
    fireEvent.pointerUp(area, { clientX: 260 });
    expect(current()).toBe('Show testimonial 1');
  });

  it('pauses while a control has focus and resumes when focus leaves', () => {
    renderCarousel();
    const next = screen.getByRole('button', { name: 'Next testimonial' });
    act(() => next.focus());
    act(() => vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS * 2));
    expect(current()).toBe('Show testimonial 1');
    act(() => next.blur());
    act(() => vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS));
    expect(current()).toBe('Show testimonial 2');
  });

  it('has a pause button that stops the rotation until played again', () => {
    renderCarousel();
    fireEvent.click(screen.getByRole('button', { name: 'Pause testimonials' }));
    act(() => screen.getByRole('button', { name: 'Play testimonials' }).blur());
    act(() => vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS * 2));
    expect(current()).toBe('Show testimonial 1');
    fireEvent.click(screen.getByRole('button', { name: 'Play testimonials' }));
    act(() => screen.getByRole('button', { name: 'Pause testimonials' }).blur());
    act(() => vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS));
    expect(current()).toBe('Show testimonial 2');
  });
});
