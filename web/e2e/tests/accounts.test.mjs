import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
  api,
  BASE_URL,
  createVerifiedUser,
  launch,
  linkPath,
  newPage,
  pngImage,
  SCREENSHOT_DIR,
  screenshot,
  screenshotBoth,
  signInThroughUi,
  uniqueEmail,
  VIEWPORTS,
  waitForMail,
} from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a tasker signs up with skills, verifies the email, signs in, edits settings, uploads an avatar and signs out', async () => {
  const page = await newPage(browser, VIEWPORTS.desktop);
  const email = uniqueEmail('tasker');
  const password = 'tasker-pass-1';

  await page.goto('/signup');
  await page.getByRole('tab', { name: 'I want to provide services' }).click();
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Tasker');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password', { exact: true }).fill(password);
  await page.getByLabel(/Where you work/).fill('Newtown, NSW');
  await page.getByLabel('Upload photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: pngImage(96, 96, [245, 158, 11]) });
  await page.getByRole('img', { name: 'Selected profile picture' }).waitFor();
  await page.getByText('Avatar uploaded').waitFor();

  // Submitting without skills shows the spec's message.
  await page.getByRole('checkbox', { name: /I agree/ }).check();
  await page.getByRole('button', { name: 'Create tasker account' }).click();
  await page.getByText('Please add at least one skill').waitFor();

  await page.getByRole('button', { name: 'Plumbing' }).click();
  await page.getByRole('button', { name: 'Add Skill' }).click();
  await page.getByLabel('Skill name').fill('Bike repair');
  await page.getByLabel('Skill name').press('Enter');
  await page.getByRole('button', { name: /^Edit Plumbing/ }).waitFor();
  await page.getByRole('button', { name: /^Edit Bike repair/ }).waitFor();
  await screenshot(page, 'signup-tasker');

  await page.getByRole('button', { name: 'Create tasker account' }).click();
  await page.waitForURL('**/login');
  await page.getByText('Account created successfully').waitFor();
  await page.getByText('Welcome to Taskhub! Please check your email to verify your account.').waitFor();

  const mail = await waitForMail(email);
  await page.goto(linkPath(mail.text, '/verify-email'));
  await page.getByRole('heading', { name: 'Email verified' }).waitFor();
  await page.getByRole('link', { name: 'Sign In' }).last().click();
  await page.waitForURL('**/login');

  await signInThroughUi(page, { email, password });
  await page.getByText('Logged in successfully').waitFor();
  await page.getByText('Welcome back to Taskhub!').waitFor();
  await page.waitForURL((url) => url.pathname === '/');
  const menuButton = page.getByRole('button', { name: 'Account menu for Ada Tasker' });
  await menuButton.waitFor();

  await menuButton.click();
  await page.getByRole('menu').waitFor();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/account-menu-1280.png` });
  const profileHref = await page.getByRole('menuitem', { name: 'Your Profile' }).getAttribute('href');
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  await page.getByRole('heading', { level: 1, name: 'Account Settings' }).waitFor();
  await page.getByText(email).waitFor();

  await page.getByLabel('Display name').fill('Ada fixes it');
  await page.getByLabel('Phone').fill('0400 000 000');
  await page.getByLabel('Location').fill('Marrickville, NSW');
  await page.getByLabel('Bio').fill('Licensed plumber, ten years of leaky taps and happy customers.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Settings updated').waitFor();
  await page.getByText('Your account settings have been updated successfully.').waitFor();
  await page.getByRole('button', { name: 'Account menu for Ada fixes it' }).waitFor();

  await page.reload();
  await page.getByLabel('Display name').waitFor();
  await page.waitForFunction(() => (document.querySelector('input[autocomplete="tel"]')?.value ?? '') !== '');
  assert.equal(await page.getByLabel('Display name').inputValue(), 'Ada fixes it');
  assert.equal(await page.getByLabel('Location').inputValue(), 'Marrickville, NSW');

  await page.getByRole('img', { name: 'Your profile picture' }).and(page.locator('img')).waitFor();
  await page.getByLabel('Change profile picture', { exact: true }).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: pngImage() });
  await page.getByText('Avatar uploaded').waitFor();
  await page.getByRole('img', { name: 'Your profile picture' }).and(page.locator('img')).waitFor();
  const skills = page.getByRole('region', { name: 'Skills' });
  await skills.getByRole('button', { name: /^Edit Plumbing/ }).waitFor();
  await skills.getByRole('button', { name: 'Tiling' }).click();
  await skills.getByRole('button', { name: 'Add Skill' }).click();
  await page.getByRole('button', { name: 'Save skills' }).click();
  await page.getByText('Profile updated successfully').waitFor();
  await screenshot(page, 'settings');

  assert.ok(profileHref?.startsWith('/profile/'));
  await page.goto(profileHref);
  await page.getByRole('heading', { level: 1, name: 'Ada fixes it' }).waitFor();
  await page.getByText('Taskhub Verified').waitFor();
  await page.getByRole('tab', { name: 'Skills & Experience' }).click();
  await page.getByText('Plumbing').first().waitFor();
  await page.getByText('Tiling').first().waitFor();
  await screenshot(page, 'profile');

  const storage = await page.evaluate(() => Object.entries(localStorage));
  await screenshotBoth(browser, '/settings', 'settings', { heading: 'Account Settings', storage });
  await screenshotBoth(browser, profileHref, 'profile', { heading: 'Ada fixes it', storage });

  await page.getByRole('button', { name: 'Account menu for Ada fixes it' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await page.getByText('Logged out successfully').waitFor();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('link', { name: 'Sign In' }).first().waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('taskhub.session')), null);
  await page.context().close();
});

test('signing in before verifying explains why and can resend the link', async () => {
  const email = uniqueEmail('unverified');
  await api('/api/auth/signup', {
    method: 'POST',
    body: { email, password: 'waiting-pass-1', first_name: 'Una', last_name: 'Verified', account_type: 'customer' },
  });
  await waitForMail(email);
  const page = await newPage(browser, VIEWPORTS.desktop);
  await page.goto('/login');
  await signInThroughUi(page, { email, password: 'waiting-pass-1' });
  await page.getByRole('alert').filter({ hasText: 'Open the link in the email we sent you' }).waitFor();
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await page.getByText('Verification email sent').waitFor();
  const deadline = Date.now() + 10_000;
  let count = 0;
  while (Date.now() < deadline && count < 2) {
    const mails = await (await fetch(`${BASE_URL}/dev/mailbox.json`)).json();
    count = mails.filter((m) => m.to.includes(email)).length;
    if (count < 2) await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(count, 2, 'a second verification mail arrives');
  await page.context().close();
});

test('a forgotten password is reset through the emailed link', async () => {
  const account = await createVerifiedUser({ prefix: 'reset' });
  const page = await newPage(browser, VIEWPORTS.mobile);
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByText('Please enter a valid email address').waitFor();
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  await page.getByText('Recovery email sent').waitFor();
  await screenshot(page, 'forgot-password-sent');

  const mail = await waitForMail(account.email, { subject: /reset|password/i });
  await page.goto(linkPath(mail.text, '/reset-password'));
  await page.getByLabel('New password', { exact: true }).fill('brand-new-pass');
  await page.getByLabel('Confirm new password', { exact: true }).fill('brand-new-pass');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await page.getByText('Password updated').waitFor();
  await page.getByRole('link', { name: 'Sign In' }).last().click();
  await signInThroughUi(page, { email: account.email, password: 'brand-new-pass' });
  await page.getByText('Logged in successfully').waitFor();
  await page.context().close();
});
