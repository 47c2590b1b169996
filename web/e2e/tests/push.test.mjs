import assert from 'node:assert/strict';
import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';

import ece from 'http_ece';

import { api, BASE_URL, createVerifiedUser, inDays, launch, login, newPage, screenshotBoth, signedInPage, signInThroughUi } from '../browser.mjs';

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
      received.push({ headers: request.headers, path: request.url, body: Buffer.concat(chunks) });
      response.writeHead(201).end();
      server.emit('push');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, server, received, close: () => server.close() };
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

/**
 * The one seam of the push test. Headless Chromium's PushManager.subscribe() registers with
 * Google's push service (FCM), which a test machine cannot reach, so in the page (never in the
 * worker) subscribe() and getSubscription() answer a subscription whose endpoint is the loopback
 * push service above and whose keys the test holds, as a browser would after FCM answered.
 * Everything else is real: the app's button and permission flow, the server storing the
 * device, its delivery worker encrypting (RFC 8291) and signing (VAPID) a push to that endpoint,
 * the push service decrypting it, and the real service worker showing what it carried, handed
 * over with `ServiceWorker.deliverPushMessage` as the browser's push client would.
 */
function subscribeThroughLoopback({ endpoint, p256dh, auth }) {
  const subscribeCalls = [];
  window.__pushSubscribeCalls = subscribeCalls;
  const key = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer;
  const stored = () => localStorage.getItem('test.loopback-push') === endpoint;
  const subscription = {
    endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true },
    getKey: (name) => key(name === 'p256dh' ? p256dh : auth),
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
    unsubscribe: async () => {
      localStorage.removeItem('test.loopback-push');
      return true;
    },
  };
  PushManager.prototype.subscribe = async function (options) {
    const serverKey = new Uint8Array(options.applicationServerKey);
    subscribeCalls.push({ userVisibleOnly: options.userVisibleOnly, applicationServerKey: btoa(String.fromCharCode(...serverKey)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') });
    localStorage.setItem('test.loopback-push', endpoint);
    return subscription;
  };
  PushManager.prototype.getSubscription = async function () {
    return stored() ? subscription : null;
  };
}

/** A loopback push service that waits for one push and decrypts it with http_ece. */
async function decryptingPushService(keys, auth) {
  const service = await fakePushService();
  const next = async () => {
    while (service.received.length === 0) await new Promise((resolve) => service.server.once('push', resolve));
    const push = service.received.shift();
    const plain = ece.decrypt(push.body, { version: 'aes128gcm', privateKey: keys, authSecret: auth });
    return { headers: push.headers, path: push.path, payload: JSON.parse(plain.toString('utf8')) };
  };
  return { ...service, next };
}

/** Checks a VAPID (RFC 8292) `Authorization: vapid t=…, k=…` header: the server's key signed it for `audience`. */
function assertVapid(header, serverKey, audience) {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header ?? '');
  assert.ok(match, `a VAPID authorization header: ${header}`);
  const [, token, key] = match;
  assert.equal(key, serverKey, 'signed with the key the app subscribed with');
  const [head, claims, signature] = token.split('.');
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: Buffer.from(key, 'base64url').subarray(1, 33).toString('base64url'), y: Buffer.from(key, 'base64url').subarray(33).toString('base64url') }, format: 'jwk' });
  const valid = verify('sha256', Buffer.from(`${head}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  assert.ok(valid, 'the VAPID token verifies');
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
  assert.equal(body.aud, audience);
  assert.ok(body.exp * 1000 > Date.now());
}

test('push end to end: enabled from the settings page, sent encrypted by the server, shown by the worker unless a focused tab is visible', async () => {
  const keys = createECDH('prime256v1');
  keys.generateKeys();
  const auth = randomBytes(16);
  const pushService = await decryptingPushService(keys, auth);
  try {
    const account = await createVerifiedUser({ prefix: 'push' });
    const endpoint = `${pushService.url}/push/chromium-device`;
    const page = await newPage(browser);
    await page.addInitScript(subscribeThroughLoopback, { endpoint, p256dh: keys.getPublicKey('base64url'), auth: auth.toString('base64url') });
    await page.goto('/login');
    await signInThroughUi(page, account);
    await page.waitForURL((url) => url.pathname === '/');
    const cdp = await page.context().newCDPSession(page);
    // Granted in this page's own browser context (Playwright makes one per test page).
    const { targetInfo } = await cdp.send('Target.getTargetInfo');
    await cdp.send('Browser.grantPermissions', { origin: BASE_URL, permissions: ['notifications'], browserContextId: targetInfo.browserContextId });
    await page.goto('/settings/notifications');
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await page.getByText('Notifications are off on this device.').waitFor();

    // The CDP session sees the worker the button registers.
    const registrationId = new Promise((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((registration) => registration.scopeURL === `${BASE_URL}/` && !registration.isDeleted);
        if (ours) resolve(ours.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    await page.getByRole('button', { name: 'Enable notifications on this device' }).click();
    await page
      .getByText('Notifications are on for this device.')
      .waitFor()
      .catch(async (error) => {
        throw new Error(`${error.message}\n--- page says ---\n${await page.locator('main').innerText()}`);
      });
    const id = await registrationId;
    const { key: serverKey } = await api('/api/push/public-key');
    assert.deepEqual(await page.evaluate(() => window.__pushSubscribeCalls), [{ userVisibleOnly: true, applicationServerKey: serverKey }]);
    const session = await login(account);
    const devices = await api('/api/me/push-subscriptions', { token: session.access_token });
    assert.equal(devices.items.length, 1, 'the subscription reached the server');

    // A tasker offers on the account's task: the delivery worker pushes the poster's notification.
    const task = await api('/api/tasks', {
      method: 'POST',
      token: session.access_token,
      body: { title: 'Hang three shelves', description: 'Plasterboard wall, shelves and brackets here.', category_id: 1, location: 'Newtown NSW', budget_cents: 12000, due_date: inDays(5) },
    });
    const tasker = await createVerifiedUser({ prefix: 'push-tasker', body: { first_name: 'Tara', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Handyman', level: 70 }] } });
    const { access_token: taskerToken } = await login(tasker);
    await api(`/api/tasks/${task.id}/offers`, { method: 'POST', token: taskerToken, body: { amount_cents: 9000, message: 'I have a stud finder.' } });
    const push = await pushService.next();
    assert.equal(push.path, '/push/chromium-device');
    assert.equal(push.headers['content-encoding'], 'aes128gcm');
    assertVapid(push.headers.authorization, serverKey, pushService.url);
    assert.equal(push.payload.type, 'offer');
    assert.equal(push.payload.title, 'New offer');
    assert.equal(push.payload.message, 'You received a new offer on "Hang three shelves".');
    assert.equal(push.payload.link, `/task/${task.id}`);

    // This tab is focused and visible: the live socket shows it, the worker stays quiet. Its
    // decision is known without sleeping: it tells the tab it left the push to it (`push.deferred`,
    // which the app uses to refresh its in-app list), and returns without showing anything.
    const deliver = (payload) =>
      cdp.send('ServiceWorker.deliverPushMessage', { origin: BASE_URL, registrationId: id, data: JSON.stringify(payload) });
    await page.waitForFunction(async () => Boolean((await navigator.serviceWorker.ready).active));
    await page.bringToFront();
    assert.ok(await page.evaluate(() => document.visibilityState === 'visible' && document.hasFocus()));
    await page.evaluate(() => {
      window.__deferredPushes = [];
      navigator.serviceWorker.addEventListener('message', (event) => {
        if (event.data?.type === 'push.deferred') window.__deferredPushes.push(event.data.id);
      });
    });
    await deliver(push.payload);
    await page.waitForFunction(() => window.__deferredPushes.length > 0);
    assert.deepEqual(await page.evaluate(() => window.__deferredPushes), [push.payload.id]);
    assert.deepEqual(await shownNotifications(page), []);

    // No tab of the app open: the worker shows the push the server sent. What it shows is read
    // inside the worker itself, so no window of the app exists to change its decision.
    const worker = page.context().serviceWorkers().find((w) => w.url() === `${BASE_URL}/sw.js`) ?? (await page.context().waitForEvent('serviceworker'));
    await page.goto('about:blank');
    await deliver(push.payload);
    const shown = await worker.evaluate(async () => {
      for (;;) {
        const list = await self.registration.getNotifications();
        if (list.length > 0) return list.map((notification) => ({ title: notification.title, body: notification.body }));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    assert.deepEqual(shown, [{ title: push.payload.title, body: push.payload.message }]);
    await page.context().close();
  } finally {
    pushService.close();
  }
});

test('notification settings page at 390 and 1280 px', async () => {
  const page = await signedInPage(browser, await createVerifiedUser({ prefix: 'settings' }));
  const storage = await page.evaluate(() => Object.entries(localStorage));
  await page.context().close();
  await screenshotBoth(browser, '/settings/notifications', 'notification-settings', { heading: 'Notifications', storage });
});
