import { LazyMotion, MotionConfig } from 'framer-motion';
import type { ReactNode } from 'react';

import { whenIdle } from '@/lib/when-idle';

/**
 * The animation engine comes after the elements, once the browser is idle after the first paint:
 * LazyMotion renders `m` elements at once, and they animate from then on.
 */
const loadMotionFeatures = () =>
  whenIdle()
    .then(() => import('@/lib/motion-features'))
    .then((module) => module.default);

/** Where `m` elements animate: features loaded lazily, and the OS's reduced-motion setting honoured. */
export function MotionProvider({ children }: { children: ReactNode }) {
  return (
    <LazyMotion features={loadMotionFeatures} strict>
      <MotionConfig reducedMotion="user">{children}</MotionConfig>
    </LazyMotion>
  );
}
