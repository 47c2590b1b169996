import { useEffect } from 'react';

const DEFAULT_TITLE = 'Taskhub — local help, done right';
const DEFAULT_DESCRIPTION =
  'Taskhub — post a task, get offers from trusted local taskers, and pay securely once the job is done.';

/**
 * Sets the tab title, so each screen is announced and bookmarked by name, and the meta
 * description (the page's own when given, else the site's) that search results show.
 */
export function usePageTitle(title: string | undefined, description?: string) {
  useEffect(() => {
    document.title = title ? `${title} · Taskhub` : DEFAULT_TITLE;
  }, [title]);
  useEffect(() => {
    document.querySelector('meta[name="description"]')?.setAttribute('content', description || DEFAULT_DESCRIPTION);
  }, [description]);
}
