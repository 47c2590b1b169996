import { LazyMotion, MotionConfig } from 'framer-motion';
import type { ReactNode } from 'react';

/** The animation engine comes after the elements: LazyMotion renders `m` elements at once. */
const loadMotionFeatures = () => import('@/lib/motion-features').then((module) => module.default);

/** Where `m` elements animate: features loaded lazily, and the OS's reduced-motion setting honoured. */
export function MotionProvider({ children }: { children: ReactNode }) {
  return (
    <LazyMotion features={loadMotionFeatures} strict>
      <MotionConfig reducedMotion="user">{children}</MotionConfig>
    </LazyMotion>
  );
}
