// A poster edits their open task from its page; a tasker watching the same page and a visitor
// on the browse list see the new title, budget and description without reloading.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { api, createVerifiedUser, inDays, launch, login, newPage, screenshot, signedInPage, VIEWPORTS, waitForTopic } from '../browser.mjs';

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
