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
 * then. For parts the first paint does not need (menus, toasts, live controls, dialogs), so their
 * chunks come after the page's own.
 */
export function lazyWhenIdle<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return loadedAfterMount(() => whenIdle().then(load));
}

/**
 * A component whose code loads when it is first rendered; it renders nothing until then. For parts
 * only some visitors see (the forms of signed-in users, the panels of a task's two parties), so that
 * the others never download them.
 */
export function lazyOnMount<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return loadedAfterMount(load);
}

/**
 * Not React.lazy on purpose: a suspended boundary showing its fallback makes React hold back
 * revealing the page's content for 300 ms.
 */
function loadedAfterMount<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loading: Promise<ComponentType<P>> | null = null;
  let loaded: ComponentType<P> | null = null;
  return function LoadedAfterMount(props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    useEffect(() => {
      if (Component) return;
      let mounted = true;
      // A chunk that failed to load (offline) renders nothing; the next mount tries again.
      loading ??= load().then(
        (component) => (loaded = component),
        (error: unknown) => {
          loading = null;
          throw error;
        },
      );
      void loading.then(
        (component) => {
          if (mounted) setComponent(() => component);
        },
        () => undefined,
      );
      return () => {
        mounted = false;
      };
    }, [Component]);
    return Component ? <Component {...props} /> : null;
  };
}
