import assert from 'node:assert/strict';
import { createECDH, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';

import ece from 'http_ece';

import { api, BASE_URL, createVerifiedUser, launch, login, screenshotBoth, signedInPage } from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A push service on a loopback port (DEV_MODE lets the server push to http://127.0.0.1). */
async function fakePushService() {
  const received = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(201).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, received, close: () => server.close() };
}

test("the server's pushes decrypt with http_ece, an implementation nobody here wrote", async () => {
  const pushService = await fakePushService();
  try {
    const session = await login(await createVerifiedUser({ prefix: 'interop' }));
    const keys = createECDH('prime256v1');
    keys.generateKeys();
    const auth = randomBytes(16);
    await api('/api/me/push-subscriptions', {
      method: 'POST',
      token: session.access_token,
      body: {
        endpoint: `${pushService.url}/push/device-1`,
        keys: { p256dh: keys.getPublicKey('base64url'), auth: auth.toString('base64url') },
      },
    });
    const result = await api('/api/me/push-subscriptions/test', { method: 'POST', token: session.access_token });
    assert.deepEqual(result, { sent: 1, failed: 0 });

    const [push] = pushService.received;
    assert.equal(push.headers['content-encoding'], 'aes128gcm');
    const plain = ece.decrypt(push.body, { version: 'aes128gcm', privateKey: keys, authSecret: auth });
    const payload = JSON.parse(plain.toString('utf8'));
    assert.equal(payload.title, 'Test notification');
    assert.equal(payload.message, 'Notifications from Taskhub reach this device.');
    assert.equal(payload.link, '/settings/notifications');
  } finally {
    pushService.close();
  }
});

/** The notifications the app's service worker is showing, as seen from `page`. */
async function shownNotifications(page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    const shown = registration ? await registration.getNotifications() : [];
    return shown.map((notification) => ({ title: notification.title, body: notification.body }));
  });
}

test('the service worker is a real script at /sw.js, revalidated on every load', async () => {
  const response = await fetch(`${BASE_URL}/sw.js`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /javascript/);
  assert.equal(response.headers.get('cache-control'), 'no-cache');
  assert.match(await response.text(), /showNotification/);
});

test('push on a device: the service worker shows a push unless a focused tab of the app is visible', async () => {
  const account = await createVerifiedUser({ prefix: 'push' });
  const page = await signedInPage(browser, account);
  await page.context().grantPermissions(['notifications'], { origin: BASE_URL });
  await page.goto('/settings/notifications');
  await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
  await page.getByText('Notifications are off on this device.').waitFor();

  // The CDP session sees the worker the button registers.
  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((registration) => registration.scopeURL === `${BASE_URL}/` && !registration.isDeleted);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  await page.getByRole('button', { name: 'Enable notifications on this device' }).click();
  const id = await registrationId;
  // Headless Chromium reaches no real push service, so subscribe() fails there and the app says so;
  // with one, the device is listed. Either way the worker is registered, and the pushes below go to
  // it through the DevTools protocol.
  const outcome = page.getByText(/^(Notifications are on for this device\.|Could not enable notifications)$/).first();
  await outcome.waitFor();
  const enabled = (await outcome.textContent()) === 'Notifications are on for this device.';
  const session = await login(account);
  const devices = await api('/api/me/push-subscriptions', { token: session.access_token });
  assert.equal(devices.items.length, enabled ? 1 : 0);
  await page.waitForFunction(async () => Boolean((await navigator.serviceWorker.ready).active));
  const deliver = (payload) =>
    cdp.send('ServiceWorker.deliverPushMessage', { origin: BASE_URL, registrationId: id, data: JSON.stringify(payload) });

  // This tab is focused and visible: the live socket shows it, the worker stays quiet.
  await page.bringToFront();
  assert.ok(await page.evaluate(() => document.visibilityState === 'visible' && document.hasFocus()));
  await deliver({ id: 'n-1', type: 'offer', title: 'New offer while looking', message: 'Not shown', link: '/my-tasks' });
  await page.waitForTimeout(1_000);
  assert.deepEqual(await shownNotifications(page), []);

  // No tab of the app open: the worker shows the push.
  await page.goto('about:blank');
  await deliver({ id: 'n-2', type: 'offer', title: 'New offer on your task', message: 'Sam offered $90', link: '/my-tasks' });
  const viewer = await page.context().newPage();
  await viewer.goto('/favicon.svg');
  await viewer.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    return registration ? (await registration.getNotifications()).length > 0 : false;
  });
  assert.deepEqual(await shownNotifications(viewer), [{ title: 'New offer on your task', body: 'Sam offered $90' }]);
  await page.context().close();
});

test('notification settings page at 390 and 1280 px', async () => {
  const page = await signedInPage(browser, await createVerifiedUser({ prefix: 'settings' }));
  const storage = await page.evaluate(() => Object.entries(localStorage));
  await page.context().close();
  await screenshotBoth(browser, '/settings/notifications', 'notification-settings', { heading: 'Notifications', storage });
});
