// Real pictures: a tasker builds a portfolio on their profile (add two items, reorder) and another
// member opens it in the lightbox with the keyboard; a poster posts a task with two photos through
// the wizard and sees them in the task's gallery and on its browse card; the poster and tasker of an
// assigned task exchange photos in Messages, which no third member can fetch. axe at 390 and 1280 px.
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

const picture = (name, colour) => ({ name, mimeType: 'image/png', buffer: pngImage(320, 240, colour) });

/** axe at both widths on the page as it is now. */
async function accessibleAtBothSizes(page, label) {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectNoSeriousA11yViolations(page, `${label} (${size})`);
    await screenshot(page, `${label.replaceAll(' ', '-')}-${size}`);
  }
}

test('a tasker adds two portfolio items and another member opens them in the lightbox', async () => {
  const tasker = await createVerifiedUser({
    prefix: 'portfolio-tasker',
    body: { first_name: 'Tina', last_name: 'Tiler', account_type: 'tasker', skills: [{ name: 'Tiling', level: 80 }] },
  });
  const { user } = await login(tasker);
  const page = await signedInPage(browser, tasker);
  await page.goto(`/profile/${user.id}`);
  await page.getByRole('heading', { level: 1, name: 'Tina T.' }).waitFor();
  await page.getByRole('tab', { name: 'Portfolio' }).click();
  await page.getByText('No portfolio items yet.').waitFor();

  const form = page.getByRole('form', { name: 'Add a portfolio item' });
  for (const [title, description, colour] of [
    ['Bathroom floor', 'Hexagon tiles, 6 m²', [200, 60, 60]],
    ['Kitchen splashback', 'Subway tiles with dark grout', [60, 60, 200]],
  ]) {
    await form.getByLabel('Picture').setInputFiles(picture(`${title}.png`, colour));
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Description').fill(description);
    await form.getByRole('button', { name: 'Add to portfolio' }).click();
    await page.getByRole('button', { name: `Edit ${title}` }).waitFor();
  }
  await page.getByText('(2 of 12)').waitFor();
  // The splashback first: visitors see the order the tasker chose.
  await page.getByRole('button', { name: 'Move Kitchen splashback up' }).click();
  const grid = page.getByRole('list', { name: "Tina T.'s portfolio" });
  await grid.getByRole('button').first().filter({ hasText: 'Kitchen splashback' }).waitFor();
  await accessibleAtBothSizes(page, 'portfolio manager');

  const visitor = await createVerifiedUser({ prefix: 'portfolio-visitor' });
  const visitorPage = await signedInPage(browser, visitor, VIEWPORTS.mobile);
  await visitorPage.goto(`/profile/${user.id}`);
  await visitorPage.getByRole('heading', { level: 1, name: 'Tina T.' }).waitFor();
  await visitorPage.getByRole('tab', { name: 'Portfolio' }).click();
  assert.equal(await visitorPage.getByRole('form', { name: 'Add a portfolio item' }).count(), 0, 'only the owner manages it');
  const items = visitorPage.getByRole('list', { name: "Tina T.'s portfolio" }).getByRole('button');
  assert.deepEqual(await items.allInnerTexts().then((texts) => texts.map((text) => text.split('\n')[0])), [
    'Kitchen splashback',
    'Bathroom floor',
  ]);

  // Keyboard only: focus the first item, open it, step with the arrows, close with Escape.
  await items.first().focus();
  await visitorPage.keyboard.press('Enter');
  const lightbox = visitorPage.getByRole('dialog', { name: /Portfolio/ });
  await lightbox.getByRole('img', { name: 'Kitchen splashback' }).waitFor();
  await lightbox.getByText('1 of 2').waitFor();
  await lightbox.getByText('Subway tiles with dark grout').waitFor();
  await accessibleAtBothSizes(visitorPage, 'portfolio lightbox');
  await visitorPage.keyboard.press('ArrowRight');
  await lightbox.getByRole('img', { name: 'Bathroom floor' }).waitFor();
  await lightbox.getByText('2 of 2').waitFor();
  // Focus stays in the dialog: Tab cycles through its buttons only.
  for (let i = 0; i < 4; i++) {
    await visitorPage.keyboard.press('Tab');
    assert.ok(await lightbox.evaluate((dialog) => dialog.contains(document.activeElement)), 'focus left the lightbox');
  }
  await visitorPage.keyboard.press('Escape');
  await lightbox.waitFor({ state: 'hidden' });
  assert.equal(await items.first().evaluate((button) => button === document.activeElement), true, 'focus returns to the opener');
});

test('a poster posts a task with two photos and sees them in its gallery and on its card', async () => {
  const poster = await createVerifiedUser({ prefix: 'photo-poster', body: { first_name: 'Priya', last_name: 'Poster' } });
  const title = `Regrout the shower ${Date.now().toString(36)}`;
  const page = await signedInPage(browser, poster);
  await page.goto('/post-task');
  await page.getByRole('heading', { level: 1, name: 'Post a Task' }).waitFor();
  await page.getByLabel('Task title').fill(title);
  await page.getByLabel('Description').fill('Mouldy grout around the shower base; about 2 m² of wall tiles.');
  await page.getByLabel('Category').selectOption({ label: 'Handyman' });
  await page.getByLabel('Add photos').setInputFiles([picture('shower.png', [90, 140, 90]), picture('corner.png', [140, 90, 90])]);
  await page.getByRole('button', { name: 'Remove photo 2' }).waitFor();
  await accessibleAtBothSizes(page, 'post task photos');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Location').fill('Newtown NSW');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Budget (AUD)').fill('180');
  await page.getByLabel('Due date').fill(inDays(5));
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('2 photos').waitFor();
  await page.getByRole('button', { name: 'Post Task' }).click();
  await page.waitForURL('**/my-tasks');
  await page.getByRole('heading', { name: title }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor();

  const gallery = page.getByRole('region', { name: 'Task photos' });
  await gallery.getByRole('button', { name: 'Open photo 2 of 2' }).waitFor();
  await accessibleAtBothSizes(page, 'task gallery');
  await gallery.getByRole('button', { name: 'Open photo 1 of 2' }).click();
  const lightbox = page.getByRole('dialog', { name: /Task photos/ });
  await lightbox.getByText('1 of 2').waitFor();
  await page.keyboard.press('ArrowRight');
  await lightbox.getByText('2 of 2').waitFor();
  await lightbox.getByRole('button', { name: 'Close' }).click();
  await lightbox.waitFor({ state: 'hidden' });

  const tasks = await api('/api/tasks?q=' + encodeURIComponent(title));
  assert.equal(tasks.items[0].photos.length, 1, 'cards carry the first photo');
  await page.goto(`/tasks?q=${encodeURIComponent(title)}`);
  const card = page.getByRole('article').filter({ hasText: title });
  await card.getByTestId('task-card-photo').waitFor();
  assert.equal(await card.getByTestId('task-card-photo').getAttribute('src'), tasks.items[0].photos[0].thumb_url);
});

/** Accepts the tasker's offer and pays it on the sandbox checkout through HTTP: the task is assigned. */
async function assign(posterToken, taskerToken, taskId) {
  const offer = await api(`/api/tasks/${taskId}/offers`, { method: 'POST', token: taskerToken, body: { amount_cents: 12000, message: 'I can come on Saturday.' } });
  const checkout = await api('/api/payments/checkout-session', { method: 'POST', token: posterToken, body: { task_id: taskId, offer_id: offer.id } });
  const paid = await fetch(checkout.url, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ action: 'pay', card_number: '4242 4242 4242 4242' }),
  });
  assert.equal(paid.status, 303, 'the sandbox checkout took the card');
  await api('/api/payments/verify', { method: 'POST', token: posterToken, body: { session_id: checkout.session_id, task_id: taskId, offer_id: offer.id } });
}

/** Sends a message with a photo from the task page's Messages box. */
async function sendPhoto(page, text, file) {
  await page.getByLabel('Attach a photo').setInputFiles(file);
  await page.getByText(`Photo: ${file.name}`).waitFor();
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByText(`Photo: ${file.name}`).waitFor({ state: 'detached' });
}

/** Waits until the photo `name` in the Messages box has loaded (fetched with the viewer's token). */
async function photoShown(page, name) {
  const image = page.locator('[aria-label="Messages"]').getByRole('img', { name });
  await image.waitFor();
  await page.waitForFunction((element) => element.complete && element.naturalWidth > 0, await image.elementHandle());
}

test('the poster and the tasker exchange photos in their messages; no one else can fetch them', async () => {
  const posterAccount = await createVerifiedUser({ prefix: 'message-photo-poster', body: { first_name: 'Polly', last_name: 'Poster' } });
  const taskerAccount = await createVerifiedUser({
    prefix: 'message-photo-tasker',
    body: { first_name: 'Theo', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Plumbing', level: 80 }] },
  });
  const strangerAccount = await createVerifiedUser({ prefix: 'message-photo-stranger' });
  const posterToken = (await login(posterAccount)).access_token;
  const taskerToken = (await login(taskerAccount)).access_token;
  const strangerToken = (await login(strangerAccount)).access_token;
  const task = await api('/api/tasks', {
    method: 'POST',
    token: posterToken,
    body: { title: `Fix the dripping tap ${Date.now().toString(36)}`, description: 'Bathroom basin tap drips all night.', category_id: 3, location: 'Newtown NSW', budget_cents: 12000, due_date: inDays(4) },
  });
  await assign(posterToken, taskerToken, task.id);

  const posterPage = await signedInPage(browser, posterAccount);
  const taskerPage = await signedInPage(browser, taskerAccount, VIEWPORTS.mobile);
  for (const page of [posterPage, taskerPage]) {
    await page.goto(`/task/${task.id}`);
    await page.getByRole('heading', { name: 'Messages' }).waitFor();
    await waitForTopic(page, `task:${task.id}`);
  }

  await sendPhoto(posterPage, 'This is the tap', picture('tap.png', [40, 120, 200]));
  await photoShown(posterPage, 'Photo from you');
  // The tasker's page never reloaded: the message arrives live and its photo loads for them.
  await taskerPage.getByText('This is the tap').waitFor();
  await photoShown(taskerPage, 'Photo from the other party');

  await sendPhoto(taskerPage, 'The washer I will fit', picture('washer.png', [200, 160, 40]));
  await posterPage.getByText('The washer I will fit').waitFor();
  await photoShown(posterPage, 'Photo from the other party');
  await photoShown(taskerPage, 'Photo from you');
  await accessibleAtBothSizes(taskerPage, 'message photos');

  // The tasker opens the poster's photo full size.
  await taskerPage.getByRole('button', { name: 'Open photo from the other party' }).click();
  const lightbox = taskerPage.getByRole('dialog', { name: /Photo/ });
  await lightbox.getByRole('img', { name: 'Photo from the other party' }).waitFor();
  await taskerPage.keyboard.press('Escape');
  await lightbox.waitFor({ state: 'hidden' });

  // Served to the two parties only: a third member gets 404 for the same URLs (no one signed in, 401).
  const messages = await api(`/api/tasks/${task.id}/messages`, { token: posterToken });
  const list = Array.isArray(messages) ? messages : messages.items;
  const photos = list.filter((message) => message.photo).map((message) => message.photo);
  assert.equal(photos.length, 2);
  for (const photo of photos) {
    for (const url of [photo.url, photo.thumb_url]) {
      for (const token of [posterToken, taskerToken]) {
        const shown = await fetch(`${BASE_URL}${url}`, { headers: { Authorization: `Bearer ${token}` } });
        assert.equal(shown.status, 200, `${url} for a party`);
        assert.equal(shown.headers.get('content-type'), 'image/jpeg');
      }
      const stranger = await fetch(`${BASE_URL}${url}`, { headers: { Authorization: `Bearer ${strangerToken}` } });
      assert.equal(stranger.status, 404, `${url} for a stranger`);
      assert.equal((await fetch(`${BASE_URL}${url}`)).status, 401, `${url} asks who is asking`);
    }
  }
  await posterPage.context().close();
  await taskerPage.context().close();
});
