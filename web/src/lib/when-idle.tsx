import { Suspense, useEffect, useState, type ReactNode } from 'react';

/** Resolves when the browser is next idle, or after `timeout` ms at the latest. */
export function whenIdle(timeout = 2_000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout });
    else setTimeout(resolve, 1);
  });
}

/**
 * Renders its children once the browser is first idle after mount. For lazy parts the first paint
 * does not need (menus, toasts, live controls): their chunks are then requested after the page's
 * own, instead of competing with them for the connection.
 */
export function WhenIdle({ children }: { children: ReactNode }) {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    let mounted = true;
    void whenIdle().then(() => {
      if (mounted) setIdle(true);
    });
    return () => {
      mounted = false;
    };
  }, []);
  return idle ? <Suspense fallback={null}>{children}</Suspense> : null;
}
