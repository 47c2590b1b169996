/// <reference lib="webworker" />
// The service worker (built by Vite as /sw.js, scope /): shows Web Push
// notifications while no tab of the app is in front of the user, and opens the
// notification's link when one is clicked.

declare const self: ServiceWorkerGlobalScope;

/** The push payload of docs/architecture.md ("The contract"). */
type PushPayload = {
  id?: string;
  type?: string;
  title?: string;
  message?: string;
  link?: string | null;
};

function readPayload(event: PushEvent): PushPayload {
  try {
    return (event.data?.json() ?? {}) as PushPayload;
  } catch {
    return { message: event.data?.text() ?? '' };
  }
}

/** Only links into this app are followed; anything else opens the home page. */
function sameOriginLink(link: unknown): string {
  try {
    const url = new URL(typeof link === 'string' && link ? link : '/', self.location.origin);
    return url.origin === self.location.origin ? url.href : self.location.origin + '/';
  } catch {
    return self.location.origin + '/';
  }
}

async function appWindows() {
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true });
}

async function showUnlessLooking(payload: PushPayload) {
  const windows = await appWindows();
  // A focused, visible tab already shows it live (socket + in-app list); it is told, so its list
  // catches up should its socket have missed the event.
  const looking = windows.filter((client) => client.focused && client.visibilityState === 'visible');
  if (looking.length > 0) {
    for (const client of looking) client.postMessage({ type: 'push.deferred', id: payload.id ?? null });
    return;
  }
  await self.registration.showNotification(payload.title || 'Taskhub', {
    body: payload.message ?? '',
    tag: payload.id,
    icon: '/favicon.svg',
    data: { link: sameOriginLink(payload.link) },
  });
}

async function openLink(link: string) {
  const windows = await appWindows();
  const existing = windows.find((client) => client.url === link) ?? windows[0];
  if (!existing) {
    await self.clients.openWindow(link);
    return;
  }
  const focused = await existing.focus();
  if (focused.url !== link) await focused.navigate(link);
}

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  event.waitUntil(showUnlessLooking(readPayload(event)));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openLink(sameOriginLink((event.notification.data as { link?: string } | null)?.link)));
});

export {};
