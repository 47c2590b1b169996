import { AnimatePresence, m } from 'framer-motion';
import { Pause, Play } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';

import { cn } from '@/lib/cn';

export const CAROUSEL_INTERVAL_MS = 8000;
export const SWIPE_THRESHOLD_PX = 150;

const testimonials = [
  { quote: 'I posted a flat-pack wardrobe at 8am and it was built, level and bolted to the wall by lunchtime. The offers came in within minutes.', name: 'Priya S.', role: 'Poster, Parramatta' },
  { quote: "Taskhub lets me fit handyman jobs around my uni timetable. I've done over 120 tasks and the payouts always arrive when they should.", name: 'Tom W.', role: 'Tasker, Brunswick' },
  { quote: 'Knowing the money is held until the job is finished made me comfortable hiring someone I had never met. Our end-of-lease clean was spotless.', name: 'Megan L.', role: 'Poster, South Brisbane' },
  { quote: 'Reviews matter here. After my first ten five-star jobs I started winning most of the gardening tasks I offered on.', name: 'Daniel K.', role: 'Tasker, Fremantle' },
];

/**
 * Auto-advances every 8 s; previous, next and dots; a swipe of 150 px or more changes slide.
 * Rotation waits while the pointer is over it or focus is in it (controls included), and stops
 * for good with the pause button (WCAG 2.2.2).
 */
export function Testimonials() {
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [stopped, setStopped] = useState(false);
  const paused = hovered || focused || stopped;
  const startX = useRef<number | null>(null);
  const count = testimonials.length;
  const go = useCallback((next: number) => setIndex(((next % count) + count) % count), [count]);

  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => go(index + 1), CAROUSEL_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [index, paused, go]);

  const item = testimonials[index];
  return (
    <section
      className="bg-brand-50 py-16"
      aria-roledescription="carousel"
      aria-labelledby="testimonials-heading"
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="mx-auto max-w-4xl px-4 sm:px-6 lg:px-8">
        <h2 id="testimonials-heading" className="text-center text-2xl font-bold text-slate-900 sm:text-3xl">
          What our community says
        </h2>
        <div
          className="relative mt-8 min-h-56 touch-pan-y select-none"
          aria-live={paused ? 'polite' : 'off'}
          onMouseEnter={() => setHovered(true)}
          onMouseLeave={() => setHovered(false)}
          onPointerDown={(e) => {
            startX.current = e.clientX;
          }}
          onPointerUp={(e) => {
            if (startX.current === null) return;
            const delta = e.clientX - startX.current;
            startX.current = null;
            if (delta <= -SWIPE_THRESHOLD_PX) go(index + 1);
            else if (delta >= SWIPE_THRESHOLD_PX) go(index - 1);
          }}
        >
          <AnimatePresence mode="wait" initial={false}>
            <m.figure
              key={index}
              initial={{ opacity: 0, x: 40 }}
              animate={{ opacity: 1, x: 0 }}
              exit={{ opacity: 0, x: -40 }}
              transition={{ duration: 0.3 }}
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${count}`}
              className="rounded-2xl bg-white p-8 text-center shadow-sm ring-1 ring-slate-200"
            >
              <blockquote className="text-lg leading-relaxed text-slate-800">“{item.quote}”</blockquote>
              <figcaption className="mt-4 text-sm">
                <span className="font-semibold text-slate-900">{item.name}</span>
                <span className="text-slate-500"> · {item.role}</span>
              </figcaption>
            </m.figure>
          </AnimatePresence>
        </div>
        <div className="mt-6 flex items-center justify-center gap-4">
          <button type="button" onClick={() => go(index - 1)} aria-label="Previous testimonial" className="h-10 w-10 rounded-full bg-white text-lg ring-1 ring-slate-300 hover:bg-slate-50">
            ‹
          </button>
          <div className="flex gap-1">
            {testimonials.map((t, i) => (
              <button
                key={t.name}
                type="button"
                onClick={() => go(i)}
                aria-label={`Show testimonial ${i + 1}`}
                aria-current={i === index}
                className="inline-flex h-6 min-w-6 items-center justify-center"
              >
                <span aria-hidden className={cn('h-2.5 rounded-full transition-all', i === index ? 'w-6 bg-brand-700' : 'w-2.5 bg-slate-300')} />
              </button>
            ))}
          </div>
          <button type="button" onClick={() => go(index + 1)} aria-label="Next testimonial" className="h-10 w-10 rounded-full bg-white text-lg ring-1 ring-slate-300 hover:bg-slate-50">
            ›
          </button>
          <button
            type="button"
            onClick={() => setStopped((value) => !value)}
            aria-label={stopped ? 'Play testimonials' : 'Pause testimonials'}
            className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-white ring-1 ring-slate-300 hover:bg-slate-50"
          >
            {stopped ? <Play aria-hidden className="h-4 w-4" /> : <Pause aria-hidden className="h-4 w-4" />}
          </button>
        </div>
      </div>
    </section>
  );
}
