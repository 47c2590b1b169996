import { useEffect, useState, type ComponentType } from 'react';

/** Resolves when the browser is next idle, or after `timeout` ms at the latest. */
export function whenIdle(timeout = 2_000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout });
    else setTimeout(resolve, 1);
  });
}

/**
 * A component whose code loads once the browser is first idle after mount; it renders nothing until
 * then. For parts the first paint does not need (menus, toasts, live controls), so their chunks come
 * after the page's own. Not React.lazy on purpose: a suspended boundary showing its fallback makes
 * React hold back revealing the page's content for 300 ms.
 */
export function lazyWhenIdle<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loading: Promise<ComponentType<P>> | null = null;
  return function LoadedWhenIdle(props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | null>(null);
    useEffect(() => {
      let mounted = true;
      loading ??= whenIdle().then(load);
      void loading.then((loaded) => {
        if (mounted) setComponent(() => loaded);
      });
      return () => {
        mounted = false;
      };
    }, []);
    return Component ? <Component {...props} /> : null;
  };
}
