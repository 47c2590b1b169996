// The live marketplace end to end, two browser contexts against the real server: a poster posts
// through the wizard, a tasker already on /tasks sees it appear live and makes an offer, the
// poster's open task page shows it without reload (latency measured), the badge increments, the
// poster pays through the sandbox checkout, the tasker sees the assignment live, asks to be paid,
// the poster releases. Also: a socket that drops recovers the offers it missed. Each test makes
// the users and tasks it needs; none relies on what an earlier one left behind.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { api, BASE_URL, createVerifiedUser, launch, login, newPage, screenshot, screenshotBoth, signedInPage, signInThroughUi, VIEWPORTS, waitForTopic } from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const signedIn = (account, viewport) => signedInPage(browser, account, viewport);

/** Resolves once the hub confirmed the topic (the client mirrors acknowledged topics on <html>). */

/** Fails the test unless the server documents `path`: the flow below must never be skipped. */
async function assertRoute(path) {
  const spec = await (await fetch(`${BASE_URL}/api/openapi.json`)).json();
  assert.ok(Object.keys(spec.paths).includes(path), `${path} is missing from /api/openapi.json`);
}

const tomorrowPlus = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test('a task posted through the wizard reaches a watching tasker live, and the offer reaches the poster live', async () => {
  const poster = await createVerifiedUser({ prefix: 'poster', body: { first_name: 'Paula', last_name: 'Poster' } });
  const tasker = await createVerifiedUser({
    prefix: 'tasker',
    body: { first_name: 'Tom', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Furniture assembly', level: 80 }] },
  });
  const title = `Assemble a PAX wardrobe ${Date.now().toString(36)}`;

  const taskerPage = await signedIn(tasker);
  await taskerPage.goto('/tasks');
  await taskerPage.getByRole('heading', { level: 1, name: 'Available Tasks' }).waitFor();
  await waitForTopic(taskerPage, 'tasks');

  const posterPage = await signedIn(poster);
  await posterPage.goto('/post-task');
  await posterPage.getByRole('heading', { level: 1, name: 'Post a Task' }).waitFor();
  await posterPage.getByLabel('Task title').fill(title);
  await posterPage.getByLabel('Description').fill('Two-door PAX wardrobe with drawers, flat-packed in the bedroom. Allen keys supplied.');
  await posterPage.getByLabel('Category').selectOption({ label: 'Furniture Assembly' });
  await screenshot(posterPage, 'post-task-step1');
  await posterPage.getByRole('button', { name: 'Next' }).click();
  await posterPage.getByLabel('Location').fill('Newtown NSW');
  await posterPage.keyboard.press('Escape');
  await posterPage.getByRole('button', { name: 'Next' }).click();
  await posterPage.getByLabel('Budget (AUD)').fill('120');
  await posterPage.getByLabel('Due date').fill(tomorrowPlus(7));
  await posterPage.getByRole('button', { name: 'Next' }).click();
  await posterPage.getByText('Step 4 of 4: Review').waitFor();
  await screenshot(posterPage, 'post-task-review');
  await posterPage.getByRole('button', { name: 'Post Task' }).click();
  await posterPage.waitForURL('**/my-tasks');
  await posterPage.getByRole('heading', { name: title }).waitFor();
  await screenshot(posterPage, 'my-tasks');

  // The tasker, who never reloaded, is told about the new task.
  const pill = taskerPage.getByRole('button', { name: /1 new task/ });
  await pill.waitFor();
  await screenshot(taskerPage, 'browse-new-task-pill');
  await pill.click();
  await taskerPage.getByRole('link', { name: title }).click();
  await taskerPage.getByRole('heading', { level: 1, name: title }).waitFor();
  const taskId = new URL(taskerPage.url()).pathname.split('/').pop();

  // The poster opens the task page and waits.
  await posterPage.getByRole('heading', { name: title }).click();
  await posterPage.getByRole('heading', { level: 1, name: title }).waitFor();
  await waitForTopic(posterPage, `task:${taskId}`);
  await waitForTopic(taskerPage, `task:${taskId}`);
  assert.equal(await posterPage.getByTestId('unread-badge').count(), 0);
  await posterPage.evaluate(() => {
    window.__offerSeenAt = new Promise((resolve) => {
      const check = () => document.querySelector('[data-offer-id]') && resolve(Date.now());
      new MutationObserver(check).observe(document.body, { childList: true, subtree: true });
    });
  });

  // Both clocks are the machine's: the tasker's submit and the poster's DOM change, each stamped in its page.
  await taskerPage.evaluate(() => document.addEventListener('submit', () => (window.__submittedAt = Date.now()), { capture: true, once: true }));
  await taskerPage.getByLabel('Your offer (AUD)').fill('85');
  await taskerPage.getByLabel(/Message to the poster/).fill("I've built dozens of these; I can come Saturday morning.");
  await taskerPage.getByRole('button', { name: 'Submit Offer' }).click();
  const seenAt = await posterPage.evaluate(() => window.__offerSeenAt);
  const submittedAt = await taskerPage.evaluate(() => window.__submittedAt);
  const latency = seenAt - submittedAt;
  console.log(`offer → poster's screen: ${latency} ms (tasker submits the form → offer element in the poster's DOM, POST round trip included)`);
  assert.ok(submittedAt > 0, 'the offer form was submitted');
  // The figure is reported above; the bound is loose so that a busy machine does not fail the run.
  const bound = Number(process.env.E2E_MAX_OFFER_LATENCY_MS ?? 5000);
  assert.ok(latency <= bound, `offer took ${latency} ms to appear (bound ${bound} ms)`);

  await posterPage.getByText('$85').first().waitFor();
  await posterPage.getByTestId('unread-badge').filter({ hasText: '1' }).waitFor();
  await taskerPage.getByRole('heading', { name: 'Your offer' }).waitFor();
  await screenshot(posterPage, 'task-detail-poster-offer');
  await screenshot(taskerPage, 'task-detail-tasker-offer');

  // Shared sign-in for the screenshots of each screen at both widths.
  const posterStorage = await posterPage.evaluate(() => Object.entries(localStorage));
  await screenshotBoth(browser, '/tasks', 'browse', { heading: 'Available Tasks' });
  await screenshotBoth(browser, `/task/${taskId}`, 'task-detail', { heading: title, storage: posterStorage });
  await screenshotBoth(browser, '/post-task', 'post-task', { heading: 'Post a Task', storage: posterStorage });
  await screenshotBoth(browser, '/my-tasks', 'my-tasks', { heading: 'My Tasks', storage: posterStorage });
  await screenshotBoth(browser, '/notifications', 'notifications', { heading: 'Notifications', storage: posterStorage });
  await screenshotBoth(browser, '/', 'home-live', {});

  await assertRoute('/api/payments/checkout-session');

  // The tasker watches their notifications while the poster accepts and pays.
  await taskerPage.goto('/notifications');
  await taskerPage.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
  await waitForTopic(taskerPage, `user:${(await login(tasker)).user.id}`);

  await posterPage.getByRole('button', { name: 'Accept & Pay' }).click();
  const dialog = posterPage.getByRole('dialog');
  await dialog.getByTestId('pay-total').filter({ hasText: '$85.00' }).waitFor();
  await dialog.getByText('$8.50').waitFor();
  await screenshot(posterPage, 'accept-pay-dialog');
  await dialog.getByRole('button', { name: 'Pay Securely' }).click();
  await posterPage.waitForURL('**/sandbox/checkout/**');
  await posterPage.getByRole('button', { name: /^Pay / }).click();
  await posterPage.waitForURL('**/payment-success?**');
  await posterPage.getByRole('heading', { name: 'Payment successful' }).waitFor();
  await posterPage.getByTestId('paid-amount').filter({ hasText: '85.00 AUD' }).waitFor();
  await posterPage.getByText('Paid', { exact: true }).waitFor();
  await posterPage.getByText('Assigned', { exact: true }).waitFor();
  await screenshot(posterPage, 'payment-success');
  // Verification is idempotent, so the same return URL renders the success view at both widths.
  await screenshotBoth(browser, new URL(posterPage.url()).pathname + new URL(posterPage.url()).search, 'payment-success', {
    heading: 'Payment successful',
    storage: await posterPage.evaluate(() => Object.entries(localStorage)),
  });

  await taskerPage.getByText('Offer accepted').waitFor();
  await screenshot(taskerPage, 'notifications-tasker-assigned');

  await posterPage.getByRole('link', { name: 'View Task' }).click();
  await posterPage.getByRole('heading', { name: /Assigned to/ }).waitFor();
  await taskerPage.goto(`/task/${taskId}`);
  await taskerPage.getByRole('heading', { name: 'You got this task' }).waitFor();
  await waitForTopic(posterPage, `task:${taskId}`);
  await waitForTopic(taskerPage, `user:${(await login(tasker)).user.id}`);

  await assertRoute('/api/tasks/{id}/messages');
  await posterPage.getByLabel('Message', { exact: true }).fill('Hi Tom, the gate code is 1234.');
  await posterPage.getByRole('button', { name: 'Send' }).click();
  await taskerPage.getByText('Hi Tom, the gate code is 1234.').waitFor();

  await taskerPage.getByRole('button', { name: 'Request payment' }).click();
  await posterPage.getByText(/asked you to release the payment/).waitFor();
  await posterPage.getByRole('button', { name: 'Release payment' }).click();
  const releaseDialog = posterPage.getByRole('dialog', { name: 'Release payment?' });
  await releaseDialog.getByText(/cannot be undone/).waitFor();
  await releaseDialog.getByRole('button', { name: 'Release payment' }).click();
  await posterPage.getByRole('heading', { name: 'Task completed' }).waitFor();
  await taskerPage.getByRole('heading', { name: 'Task completed' }).waitFor();
  await screenshot(posterPage, 'task-completed');

  await assertRoute('/api/tasks/{id}/reviews');
  for (const page of [posterPage, taskerPage]) {
    await page.getByRole('radio', { name: '5 stars' }).click();
    await page.getByLabel('Your review').fill('Great to work with, thank you!');
    await page.getByRole('button', { name: 'Post review' }).click();
    await page.getByText(/your review of .* is posted/).waitFor();
  }

  await posterPage.context().close();
  await taskerPage.context().close();
});

test('a poster whose socket dropped gets the offers made meanwhile when it reconnects', async () => {
  const poster = await createVerifiedUser({ prefix: 'poster2' });
  const taskers = await Promise.all([1, 2].map((n) => createVerifiedUser({ prefix: `tasker2-${n}`, body: { account_type: 'tasker', skills: [{ name: 'Cleaning', level: 60 }] } })));
  const { access_token: posterToken } = await login(poster);
  const task = await api('/api/tasks', {
    method: 'POST',
    token: posterToken,
    body: { title: 'End of lease clean', description: 'Two-bedroom unit, oven included.', category_id: 1, location: 'Glebe NSW', budget_cents: 30000, due_date: tomorrowPlus(5) },
  });

  // Every socket goes through Playwright, so the test can kill it and refuse reconnections.
  const page = await newPage(browser, VIEWPORTS.desktop);
  let offline = false;
  const sockets = new Set();
  await page.routeWebSocket(/\/ws(\?|$)/, (ws) => {
    if (offline) {
      ws.close({ code: 4000, reason: 'offline' });
      return;
    }
    const server = ws.connectToServer();
    sockets.add({ ws, server });
  });
  await page.goto('/login');
  await signInThroughUi(page, poster);
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto(`/task/${task.id}`);
  await page.getByRole('heading', { level: 1, name: 'End of lease clean' }).waitFor();
  await waitForTopic(page, `task:${task.id}`);

  // A live offer first, so the client has a seq to resume from.
  const first = await login(taskers[0]);
  await api(`/api/tasks/${task.id}/offers`, { method: 'POST', token: first.access_token, body: { amount_cents: 28000, message: 'First' } });
  await page.locator('[data-offer-id]').first().waitFor();

  // Kill the socket and keep it down while another offer is made.
  offline = true;
  for (const { ws, server } of sockets) {
    server.close();
    ws.close({ code: 4000, reason: 'killed by the test' });
  }
  sockets.clear();
  await page.waitForFunction(() => document.documentElement.dataset.realtime !== 'open');
  const second = await login(taskers[1]);
  await api(`/api/tasks/${task.id}/offers`, { method: 'POST', token: second.access_token, body: { amount_cents: 26000, message: 'Second' } });
  await page.getByRole('status').filter({ hasText: 'Offline' }).waitFor({ timeout: 30_000 });
  await screenshot(page, 'offline-indicator');
  assert.equal(await page.locator('[data-offer-id]').count(), 1);

  // Back online: the client reconnects (backoff), resubscribes with since and gets the missed offer.
  offline = false;
  await page.waitForFunction(() => document.querySelectorAll('[data-offer-id]').length === 2, null, { timeout: 30_000 });
  await page.getByText('Offline — reconnecting…').waitFor({ state: 'detached' });
  await page.context().close();
});

test('a signed-out visitor on /post-task is told to sign in and comes back after', async () => {
  const account = await createVerifiedUser({ prefix: 'wizard' });
  const page = await newPage(browser, VIEWPORTS.mobile);
  await page.goto('/post-task');
  await page.waitForURL('**/login');
  await page.getByText('Authentication Required').waitFor();
  await page.getByText('You must be logged in to post a task').waitFor();
  await signInThroughUi(page, account);
  await page.getByRole('heading', { level: 1, name: 'Post a Task' }).waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Please fill in all required fields').first().waitFor();
  await screenshot(page, 'post-task-error');
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390);
  await page.context().close();
});

test('the marketplace screens do not scroll sideways on a 360 px phone', async () => {
  // A task of this test's own, with a long title, so the list is never empty whatever ran before.
  const poster = await createVerifiedUser({ prefix: 'phone' });
  const { access_token: token } = await login(poster);
  const task = await api('/api/tasks', {
    method: 'POST',
    token,
    body: { title: `Narrow screen check ${Date.now().toString(36)} with a rather long title`, description: 'Hang three framed pictures in the hallway.', category_id: 2, location: 'Newtown NSW', budget_cents: 9000, due_date: tomorrowPlus(4) },
  });
  const page = await newPage(browser, { width: 360, height: 740 });
  await page.goto('/tasks');
  await page.getByRole('heading', { level: 1, name: 'Available Tasks' }).waitFor();
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('button', { name: 'Apply Filters' }).waitFor();
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360);
  await page.locator(`article a[href="/task/${task.id}"]`).first().click();
  await page.getByRole('link', { name: 'Back to tasks' }).waitFor();
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360);
  await page.context().close();
});
