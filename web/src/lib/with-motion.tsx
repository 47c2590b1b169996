import type { ComponentType } from 'react';

/**
 * Loads a component that may animate with motion's `m` elements together with the motion provider
 * (no waterfall), and wraps it in that provider. Motion is kept out of the first page's JavaScript.
 */
export async function withMotion<P extends object>(load: () => Promise<ComponentType<P>>): Promise<ComponentType<P>> {
  const [Component, { MotionProvider }] = await Promise.all([load(), import('@/lib/motion-provider')]);
  return function Animated(props: P) {
    return (
      <MotionProvider>
        <Component {...props} />
      </MotionProvider>
    );
  };
}
