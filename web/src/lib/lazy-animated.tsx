import { lazy, type ComponentType } from 'react';

/**
 * React.lazy for a component that may animate with motion's `m` elements. Motion is kept out of the
 * first page's JavaScript, so the component and the motion provider load together (no waterfall)
 * and the component renders inside that provider.
 */
export function lazyAnimated<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => {
    const [Component, { MotionProvider }] = await Promise.all([load(), import('@/lib/motion-provider')]);
    return {
      default: (props: P) => (
        <MotionProvider>
          <Component {...props} />
        </MotionProvider>
      ),
    };
  });
}
