// A poster edits their open task from its page; a tasker watching the same page and a visitor
// on the browse list see the new title, budget and description without reloading. In the same
// dialog the poster adds and removes photos, and the watching tasker sees the gallery change.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
  api,
  BASE_URL,
  createVerifiedUser,
  expectNoSeriousA11yViolations,
  inDays,
  launch,
  login,
  newPage,
  pngImage,
  screenshot,
  signedInPage,
  VIEWPORTS,
  waitForTopic,
} from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("a poster's edit reaches everyone watching the task, live", async () => {
  const poster = await createVerifiedUser({ prefix: 'edit-poster', body: { first_name: 'Paula', last_name: 'Poster' } });
  const tasker = await createVerifiedUser({
    prefix: 'edit-tasker',
    body: { first_name: 'Tom', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Painting', level: 70 }] },
  });
  const suffix = Date.now().toString(36);
  const title = `Paint the fence ${suffix}`;
  const newTitle = `Paint the back fence ${suffix}`;
  const { access_token: token } = await login(poster);
  const task = await api('/api/tasks', {
    method: 'POST',
    token,
    body: { title, description: 'One coat on a timber fence.', category_id: 7, location: 'Newtown NSW', budget_cents: 15000, due_date: inDays(6) },
  });

  const taskerPage = await signedInPage(browser, tasker);
  await taskerPage.goto(`/task/${task.id}`);
  await taskerPage.getByRole('heading', { level: 1, name: title }).waitFor();
  await waitForTopic(taskerPage, `task:${task.id}`);

  const visitorPage = await newPage(browser, VIEWPORTS.mobile);
  await visitorPage.goto('/tasks');
  await visitorPage.getByRole('link', { name: title }).waitFor();
  await waitForTopic(visitorPage, 'tasks');

  const posterPage = await signedInPage(browser, poster);
  await posterPage.goto(`/task/${task.id}`);
  await posterPage.getByRole('heading', { level: 1, name: title }).waitFor();
  // Only the poster may edit.
  assert.equal(await taskerPage.getByRole('button', { name: 'Edit task' }).count(), 0);

  await posterPage.getByRole('button', { name: 'Edit task' }).click();
  const dialog = posterPage.getByRole('dialog', { name: 'Edit task' });
  await dialog.getByLabel('Task title').waitFor();
  assert.equal(await dialog.getByLabel('Task title').inputValue(), title);
  assert.equal(await dialog.getByLabel('Budget (AUD)').inputValue(), '150');
  await dialog.getByLabel('Task title').fill('');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await dialog.getByText('Please fill in all required fields').waitFor();
  for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
    await posterPage.setViewportSize(viewport);
    await screenshot(posterPage, 'edit-task-dialog');
  }

  await dialog.getByLabel('Task title').fill(newTitle);
  await dialog.getByLabel('Description').fill('Two coats on a timber fence; paint supplied.');
  await dialog.getByLabel('Budget (AUD)').fill('240');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await posterPage.getByText('Task updated').waitFor();
  await posterPage.getByRole('heading', { level: 1, name: newTitle }).waitFor();

  // The watchers never reloaded.
  await taskerPage.getByRole('heading', { level: 1, name: newTitle }).waitFor();
  await taskerPage.getByText('Two coats on a timber fence; paint supplied.').waitFor();
  await taskerPage.getByText('$240').first().waitFor();
  await visitorPage.getByRole('link', { name: newTitle }).waitFor();
  await screenshot(taskerPage, 'edit-task-seen-live');

  const stored = await api(`/api/tasks/${task.id}`);
  assert.equal(stored.title, newTitle);
  assert.equal(stored.budget_cents, 24000);
});

test('a poster adds and removes photos in the edit dialog; a watching tasker sees the gallery change', async () => {
  const poster = await createVerifiedUser({ prefix: 'edit-photo-poster', body: { first_name: 'Petra', last_name: 'Poster' } });
  const tasker = await createVerifiedUser({
    prefix: 'edit-photo-tasker',
    body: { first_name: 'Tim', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Tiling', level: 70 }] },
  });
  const title = `Retile the laundry ${Date.now().toString(36)}`;
  const { access_token: token } = await login(poster);
  const task = await api('/api/tasks', {
    method: 'POST',
    token,
    body: { title, description: 'About 4 m² of floor tiles, old ones lifted already.', category_id: 3, location: 'Newtown NSW', budget_cents: 40000, due_date: inDays(8) },
  });
  const picture = (name, colour) => ({ name, mimeType: 'image/png', buffer: pngImage(320, 240, colour) });

  const taskerPage = await signedInPage(browser, tasker, VIEWPORTS.mobile);
  await taskerPage.goto(`/task/${task.id}`);
  await taskerPage.getByRole('heading', { level: 1, name: title }).waitFor();
  await waitForTopic(taskerPage, `task:${task.id}`);
  const taskerGallery = taskerPage.getByRole('region', { name: 'Task photos' });
  assert.equal(await taskerGallery.count(), 0, 'no photos yet');

  const posterPage = await signedInPage(browser, poster);
  await posterPage.goto(`/task/${task.id}`);
  await posterPage.getByRole('heading', { level: 1, name: title }).waitFor();
  await posterPage.getByRole('button', { name: 'Edit task' }).click();
  const dialog = posterPage.getByRole('dialog', { name: 'Edit task' });
  await dialog.getByLabel('Add photos').setInputFiles([picture('floor.png', [180, 180, 170]), picture('drain.png', [90, 90, 100])]);
  // Each photo is uploaded at once, no Save needed.
  await dialog.getByRole('button', { name: 'Remove photo 2' }).waitFor();
  await expectNoSeriousA11yViolations(posterPage, 'edit dialog with photos');
  await screenshot(posterPage, 'edit-task-photos');
  await taskerGallery.getByRole('button', { name: 'Open photo 2 of 2' }).waitFor();
  const added = await api(`/api/tasks/${task.id}`);
  assert.equal(added.photos.length, 2);

  await dialog.getByRole('button', { name: 'Remove photo 1' }).click();
  await dialog.getByRole('button', { name: 'Remove photo 2' }).waitFor({ state: 'detached' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const posterGallery = posterPage.getByRole('region', { name: 'Task photos' });
  await posterGallery.getByRole('button', { name: 'Open photo 1 of 1' }).waitFor();
  await taskerGallery.getByRole('button', { name: 'Open photo 1 of 1' }).waitFor();

  const kept = await api(`/api/tasks/${task.id}`);
  assert.deepEqual(kept.photos.map((photo) => photo.id), [added.photos[1].id], 'the first photo went, the second stayed');
  const removed = await fetch(`${BASE_URL}${added.photos[0].url}`);
  assert.equal(removed.status, 404, 'the removed photo is gone from the media store');
  await posterPage.context().close();
  await taskerPage.context().close();
});
