// Verified people end to end against the real server: a tasker verifies a mobile number with the code
// from the dev SMS outbox and their identity on the sandbox identity page (the local stand-in for
// Stripe Identity) and has two portfolio items; the poster's task has two photos, the poster sees
// the tasker's offer with both badges and opens the tasker's portfolio in the lightbox from it.
// axe-core checks each new screen at 390 px and 1280 px. (Adding portfolio items and task photos
// through their forms is photos.test.mjs; signing up through the sandbox identity provider is
// social-sign-in.test.mjs.)
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
} from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Waits for running animations (an offer sliding in is half-faded, which would fail contrast). */
async function settled(page) {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), null, { timeout: 5_000 }).catch(() => {});
  await page.waitForTimeout(500);
}

/** Uploads a picture (a solid-colour PNG) as multipart `file` with `fields`, as the forms do. */
async function upload(path, token, fields, colour) {
  const form = new FormData();
  form.append('file', new Blob([pngImage(320, 240, colour)], { type: 'image/png' }), 'picture.png');
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(`${BASE_URL}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  assert.equal(response.status, 201, `${path}: ${await response.text()}`);
}

/** An Australian mobile number no other test texts. */
const mobileNumber = () => `0412 ${String(Math.floor(Math.random() * 1000)).padStart(3, '0')} ${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
const e164 = (number) => `+61${number.replace(/\s/g, '').slice(1)}`;

/** The code of the newest text to `to` in the dev SMS outbox, polled until it arrives. */
async function textedCode(to) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const texts = await (await fetch(`${BASE_URL}/dev/sms.json`)).json();
    const text = texts.find((t) => t.to === to);
    if (text) return text.body.split(' ')[0];
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no text to ${to}`);
}

async function verifyPhoneInSettings(page, number, label) {
  await page.goto('/settings');
  await page.getByRole('heading', { level: 1, name: 'Account Settings' }).waitFor();
  await page.getByRole('heading', { name: 'Verifications' }).waitFor();
  await expectNoSeriousA11yViolations(page, `settings: verifications (${label})`);
  await page.getByLabel('Mobile number').fill(number);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByText(`We texted a 6-digit code to ${e164(number)}`).waitFor();
  await page.getByRole('button', { name: /^Resend code in \d+s$/ }).waitFor();
  await expectNoSeriousA11yViolations(page, `settings: code step (${label})`);
  await page.getByLabel('Verification code').fill('000000');
  await page.getByRole('button', { name: 'Verify number' }).click();
  const wrong = page.getByText('That code is not right. Check the text and try again.');
  const code = await textedCode(e164(number));
  if (code !== '000000') await wrong.waitFor();
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify number' }).click();
  await page.getByText('Mobile verified').waitFor();
}

test('a tasker verifies a phone by SMS and their identity in the sandbox; the poster sees both badges on the offer', async () => {
  const poster = await createVerifiedUser({ prefix: 'verify-poster', body: { first_name: 'Vera', last_name: 'Poster' } });
  const tasker = await createVerifiedUser({
    prefix: 'verify-tasker',
    body: { first_name: 'Ivan', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Painting', level: 80 }] },
  });
  const number = mobileNumber();
  const taskerPage = await signedInPage(browser, tasker);
  await verifyPhoneInSettings(taskerPage, number, '1280 px');
  await screenshot(taskerPage, 'settings-phone-verified');

  // Identity through the sandbox page, back to settings with the outcome.
  await taskerPage.getByRole('button', { name: 'Verify your identity' }).click();
  await taskerPage.waitForURL('**/sandbox/identity/vs_sandbox_*');
  await taskerPage.getByRole('heading', { level: 1, name: 'Verify your identity' }).waitFor();
  await expectNoSeriousA11yViolations(taskerPage, 'sandbox identity page (1280 px)');
  await screenshot(taskerPage, 'sandbox-identity');
  await taskerPage.getByRole('button', { name: 'Verify', exact: true }).click();
  await taskerPage.waitForURL((url) => url.pathname === '/settings' && url.search === '?identity=done');
  await taskerPage.getByText('Your identity is verified.').waitFor();
  await taskerPage.getByText('Identity verified', { exact: true }).waitFor();
  await expectNoSeriousA11yViolations(taskerPage, 'settings: verified (1280 px)');

  // The tasker's portfolio: two pieces of work.
  const { access_token: posterToken } = await login(poster);
  const { access_token: taskerToken } = await login(tasker);
  await upload('/api/me/portfolio', taskerToken, { title: 'Weatherboard cottage', description: 'Two coats, heritage cream' }, [230, 220, 190]);
  await upload('/api/me/portfolio', taskerToken, { title: 'Feature wall' }, [30, 90, 60]);

  // The poster's task, with two photos, gets the tasker's offer; the poster sees both badges on it.
  const title = `Paint the back fence ${Date.now().toString(36)}`;
  const task = await api('/api/tasks', {
    method: 'POST',
    token: posterToken,
    body: { title, description: 'Twelve metres of paling fence, paint supplied.', category_id: 5, location: 'Marrickville NSW', budget_cents: 30000, due_date: inDays(6) },
  });
  await upload(`/api/tasks/${task.id}/photos`, posterToken, {}, [120, 90, 60]);
  await upload(`/api/tasks/${task.id}/photos`, posterToken, {}, [60, 90, 120]);
  await api(`/api/tasks/${task.id}/offers`, { method: 'POST', token: taskerToken, body: { amount_cents: 28000, message: 'Two coats, done in a day.' } });
  const posterPage = await signedInPage(browser, poster);
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await posterPage.setViewportSize(viewport);
    await posterPage.goto(`/task/${task.id}`);
    await posterPage.getByRole('heading', { level: 1, name: title }).waitFor();
    await posterPage.getByRole('region', { name: 'Task photos' }).getByRole('button', { name: 'Open photo 2 of 2' }).waitFor();
    const offer = posterPage.getByRole('list', { name: 'Offers' }).getByRole('listitem').filter({ hasText: 'Ivan T.' });
    await offer.getByText('ID-verified', { exact: true }).waitFor();
    await offer.getByText('Mobile-verified', { exact: true }).waitFor();
    await settled(posterPage);
    await expectNoSeriousA11yViolations(posterPage, `task with photos and a verified offer (${size})`);
    await screenshot(posterPage, 'offer-with-badges');
  }

  // From the offer to the tasker's profile: the portfolio in the lightbox.
  await posterPage.getByRole('list', { name: 'Offers' }).getByRole('link', { name: /Ivan T\./ }).click();
  await posterPage.getByRole('heading', { level: 1, name: 'Ivan T.' }).waitFor();
  await posterPage.getByRole('tab', { name: 'Portfolio' }).click();
  const items = posterPage.getByRole('list', { name: "Ivan T.'s portfolio" }).getByRole('button');
  await items.filter({ hasText: 'Feature wall' }).waitFor();
  await items.first().click();
  const lightbox = posterPage.getByRole('dialog', { name: /Portfolio/ });
  await lightbox.getByRole('img', { name: 'Weatherboard cottage' }).waitFor();
  await lightbox.getByText('1 of 2').waitFor();
  await posterPage.keyboard.press('ArrowRight');
  await lightbox.getByRole('img', { name: 'Feature wall' }).waitFor();
  await expectNoSeriousA11yViolations(posterPage, 'verified tasker portfolio lightbox (1280 px)');
  await posterPage.keyboard.press('Escape');
  await lightbox.waitFor({ state: 'hidden' });

  // The tasker's public profile lists all four verification lines.
  const me = await api('/api/me', { token: taskerToken });
  await posterPage.goto(`/profile/${me.user.id}`);
  const list = posterPage.getByRole('region', { name: 'Verification' });
  for (const line of ['Email', 'Phone', 'Identity']) {
    assert.match(await list.getByRole('listitem').filter({ hasText: line }).innerText(), /Verified/);
  }
  assert.match(await list.getByRole('listitem').filter({ hasText: 'Payment method' }).innerText(), /Not verified/);
});

test('the phone and identity screens at 390 px', async () => {
  const tasker = await createVerifiedUser({
    prefix: 'verify-mobile',
    body: { first_name: 'Mia', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Cleaning', level: 60 }] },
  });
  const page = await signedInPage(browser, tasker, VIEWPORTS.mobile);
  await verifyPhoneInSettings(page, mobileNumber(), '390 px');
  await page.getByRole('button', { name: 'Verify your identity' }).click();
  await page.waitForURL('**/sandbox/identity/vs_sandbox_*');
  await page.getByRole('heading', { level: 1, name: 'Verify your identity' }).waitFor();
  await expectNoSeriousA11yViolations(page, 'sandbox identity page (390 px)');
  await page.getByRole('button', { name: 'Fail', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/settings' && url.search === '?identity=done');
  await page.getByText('Your identity could not be verified. You can try again below.').waitFor();
  await expectNoSeriousA11yViolations(page, 'settings: identity failed (390 px)');
  await screenshot(page, 'settings-identity-failed');
});
