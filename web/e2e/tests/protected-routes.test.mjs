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

test('a rejected access token is refreshed once and the page carries on', async () => {
  const account = await createVerifiedUser({ prefix: 'refresh' });
  const page = await newPage(browser, VIEWPORTS.desktop);
  await page.goto('/login');
  await signInThroughUi(page, account);
  await page.getByText('Logged in successfully').waitFor();
  const before = await page.evaluate(() => JSON.parse(localStorage.getItem('taskhub.session')));

  // Break the access token but keep the refresh token: the next API call gets a 401.
  await page.evaluate(() => {
    const session = JSON.parse(localStorage.getItem('taskhub.session'));
    localStorage.setItem('taskhub.session', JSON.stringify({ ...session, access_token: 'not-a-valid-token' }));
  });
  await page.goto('/settings');
  await page.getByRole('heading', { level: 1, name: 'Account Settings' }).waitFor();
  await page.getByText(account.email).waitFor();
  const after = await page.evaluate(() => JSON.parse(localStorage.getItem('taskhub.session')));
  assert.notEqual(after.access_token, 'not-a-valid-token');
  assert.notEqual(after.refresh_token, before.refresh_token, 'the refresh token rotated');
  await page.context().close();
});

test('a session whose refresh token was revoked ends on the login page', async () => {
  const account = await createVerifiedUser({ prefix: 'revoked' });
  const page = await newPage(browser, VIEWPORTS.desktop);
  await page.goto('/login');
  await signInThroughUi(page, account);
  await page.getByText('Logged in successfully').waitFor();
  await page.evaluate(() => {
    const session = JSON.parse(localStorage.getItem('taskhub.session'));
    localStorage.setItem('taskhub.session', JSON.stringify({ ...session, access_token: 'x', refresh_token: 'revoked' }));
  });
  await page.goto('/settings');
  await page.waitForURL('**/login');
  await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('taskhub.session')), null);
  await page.context().close();
});
