import { useEffect } from 'react';

/** Sets the tab title, so each screen is announced and bookmarked by name. */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} · Taskhub` : 'Taskhub — local help, done right';
  }, [title]);
}
