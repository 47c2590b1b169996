// Task alerts end to end, two browsers against the real server: a tasker saves an alert for
// "plumbing" within 10 km of Newtown in Settings → Task alerts; a poster posts a task 50 km away
// (Penrith) and then a matching one in Newtown through the wizard, picking the suburb from the
// offline gazetteer's suggestions. The tasker's header badge shows exactly one live task alert,
// for the Newtown task. Also: the alerts manager at 390 and 1280 px.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { api, createVerifiedUser, inDays, launch, login, screenshotBoth, signedInPage, waitForTopic } from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a tasker hears live about a matching task nearby, and not about one 50 km away', async () => {
  const tasker = await createVerifiedUser({
    prefix: 'alert-tasker',
    body: { first_name: 'Tina', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Plumbing', level: 80 }] },
  });
  const poster = await createVerifiedUser({ prefix: 'alert-poster', body: { first_name: 'Pat', last_name: 'Poster' } });
  const suffix = Date.now().toString(36);

  const taskerPage = await signedInPage(browser, tasker);
  await taskerPage.goto('/settings/alerts');
  await taskerPage.getByRole('heading', { level: 1, name: 'Task alerts' }).waitFor();
  await taskerPage.getByRole('button', { name: 'New alert' }).click();
  await taskerPage.getByLabel('Keywords').fill('plumbing');
  await taskerPage.getByRole('combobox', { name: 'Place' }).fill('Newtown');
  await taskerPage.getByRole('option', { name: 'Newtown NSW 2042' }).click();
  await taskerPage.getByLabel('Distance').selectOption({ label: 'Within 10 km' });
  await taskerPage.getByRole('button', { name: 'Save alert' }).click();
  const saved = taskerPage.getByRole('list', { name: 'Your alerts' }).getByRole('listitem');
  await saved.filter({ hasText: 'plumbing near Newtown NSW 2042' }).waitFor();
  await saved.getByText('0 tasks matched this week').waitFor();
  const taskerStorage = await taskerPage.evaluate(() => Object.entries(localStorage));
  await screenshotBoth(browser, '/settings/alerts', 'alerts-manager', { heading: 'Task alerts', storage: taskerStorage });

  await taskerPage.goto('/tasks');
  await taskerPage.getByRole('heading', { level: 1, name: 'Available Tasks' }).waitFor();
  await waitForTopic(taskerPage, `user:${(await login(tasker)).user.id}`);
  assert.equal(await taskerPage.getByTestId('unread-badge').count(), 0);

  // 50 km away: Penrith, posted first (matching takes jobs in the order they were committed).
  const posterSession = await login(poster);
  const far = await api('/api/tasks', {
    method: 'POST',
    token: posterSession.access_token,
    body: { title: `Plumbing in Penrith ${suffix}`, description: 'Blocked drain in the laundry', category_id: 3, location: 'Penrith NSW 2750', budget_cents: 15000, due_date: inDays(5) },
  });
  assert.ok(far.lat < -33.7 && far.lat > -33.8, `Penrith resolved to coordinates (${far.lat}, ${far.lon})`);

  const posterPage = await signedInPage(browser, poster);
  await posterPage.goto('/post-task');
  await posterPage.getByRole('heading', { level: 1, name: 'Post a Task' }).waitFor();
  const title = `Plumbing: leaking kitchen tap ${suffix}`;
  await posterPage.getByLabel('Task title').fill(title);
  await posterPage.getByLabel('Description').fill('The mixer tap drips all night; washer probably needs replacing.');
  await posterPage.getByLabel('Category').selectOption({ label: 'Handyman' });
  await posterPage.getByRole('button', { name: 'Next' }).click();
  await posterPage.getByLabel('Location').fill('Newtown');
  await posterPage.getByRole('option', { name: 'Newtown NSW 2042' }).click();
  await posterPage.getByRole('button', { name: 'Next' }).click();
  await posterPage.getByLabel('Budget (AUD)').fill('150');
  await posterPage.getByLabel('Due date').fill(inDays(5));
  await posterPage.getByRole('button', { name: 'Next' }).click();
  await posterPage.getByText('Step 4 of 4: Review').waitFor();
  await posterPage.getByRole('button', { name: 'Post Task' }).click();
  await posterPage.waitForURL((url) => url.pathname === '/my-tasks');

  await taskerPage.getByTestId('unread-badge').filter({ hasText: '1' }).waitFor({ timeout: 15_000 });
  await taskerPage.goto('/notifications');
  await taskerPage.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
  const alertLink = taskerPage.getByRole('link', { name: new RegExp(`New task for you.*${title}`) });
  await alertLink.waitFor();
  assert.equal(await taskerPage.getByText(`Plumbing in Penrith ${suffix}`).count(), 0, 'no alert for the task 50 km away');
  await alertLink.click();
  await taskerPage.getByRole('heading', { level: 1, name: title }).waitFor();

  const alerts = await api('/api/me/alerts', { token: (await login(tasker)).access_token });
  assert.equal(alerts.items[0].matched_this_week, 1);
});
