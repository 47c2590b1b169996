import { useEffect, useState } from 'react';

import { getSession, isExpiring, refreshSession } from '@/lib/auth/session';

/** A message photo's bytes: served only to the task's two parties, so fetched with the bearer token. */
async function fetchMessagePhoto(url: string): Promise<Blob> {
  let session = getSession();
  if (session && isExpiring(session, 10_000)) session = await refreshSession();
  const response = await fetch(url, { headers: session ? { Authorization: `Bearer ${session.access_token}` } : {} });
  if (!response.ok) throw new Error('This photo is not available.');
  return response.blob();
}

/** An object URL for the photo at `url` (null while loading), revoked when no longer shown. */
export function useMessagePhoto(url: string | null) {
  const [state, setState] = useState<{ url: string; src: string | null; failed: boolean } | null>(null);
  useEffect(() => {
    if (!url) return;
    let current = true;
    let objectUrl: string | null = null;
    fetchMessagePhoto(url).then(
      (blob) => {
        if (!current) return;
        objectUrl = URL.createObjectURL(blob);
        setState({ url, src: objectUrl, failed: false });
      },
      () => current && setState({ url, src: null, failed: true }),
    );
    return () => {
      current = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  const mine = state?.url === url ? state : null;
  return { src: mine?.src ?? null, failed: mine?.failed ?? false };
}
