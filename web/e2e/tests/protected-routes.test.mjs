import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { createVerifiedUser, launch, newPage, signInThroughUi, VIEWPORTS } from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a protected route sends a signed-out visitor to login and back after signing in', async () => {
  const account = await createVerifiedUser({ prefix: 'protected' });
  const page = await newPage(browser, VIEWPORTS.desktop);
  await page.goto('/settings?section=details');
  await page.waitForURL('**/login');
  await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
  await signInThroughUi(page, account);
  await page.getByRole('heading', { level: 1, name: 'Account Settings' }).waitFor();
  const url = new URL(page.url());
  assert.equal(url.pathname + url.search, '/settings?section=details');
  await page.context().close();
});

test('every protected route redirects a signed-out visitor to /login', async () => {
  const page = await newPage(browser, VIEWPORTS.mobile);
  for (const path of ['/my-tasks', '/notifications', '/account-settings', '/profile/00000000-0000-0000-0000-000000000000']) {
    await page.goto(path);
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
  }
  await page.context().close();
});

test('a signed-out visitor who wants to become a tasker is asked to sign in first', async () => {
  const page = await newPage(browser, VIEWPORTS.desktop);
  await page.goto('/become-tasker');
  await page.getByRole('button', { name: 'Start earning today' }).click();
  await page.getByText('Please sign in first to become a tasker').waitFor();
  await page.waitForURL('**/login');
  const account = await createVerifiedUser({ prefix: 'become' });
  await signInThroughUi(page, account);
  await page.waitForURL('**/become-tasker');
  await page.getByRole('button', { name: 'Start earning today' }).click();
  await page.getByText('Tasker application started!').waitFor();
  await page.waitForURL(/\/profile\/[^/?]+\?tasker=new$/);
  await page.getByText('Welcome to Taskhub for taskers').waitFor();
  await page.context().close();
});
