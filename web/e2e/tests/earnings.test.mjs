// Payouts and receipts end to end against the real server and the sandbox provider: a tasker sets up
// payouts on the sandbox's onboarding page (the local stand-in for Stripe's Connect onboarding), is
// paid when the poster releases once their identity is verified on the sandbox identity page, and
// sees the payout on Earnings; the poster reviews once (the form
// is gone afterwards) and finds the receipt under Payments. A poster invites a tasker from the tasker's
// profile and the invitation reaches the tasker live. Screenshots of the new screens at both widths.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { api, createVerifiedUser, expectNoSeriousA11yViolations, inDays, launch, login, newPage, screenshot, screenshotBoth, signedInPage, VIEWPORTS, waitForTopic } from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Accepts the offer and pays on the sandbox checkout through HTTP, as the poster's browser would. */
async function acceptAndPay(posterToken, taskId, offerId) {
  const checkout = await api('/api/payments/checkout-session', { method: 'POST', token: posterToken, body: { task_id: taskId, offer_id: offerId } });
  const paid = await fetch(checkout.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'pay', card_number: '4242 4242 4242 4242' }),
  });
  assert.equal(paid.status, 303);
  const verified = await api('/api/payments/verify', {
    method: 'POST',
    token: posterToken,
    body: { session_id: checkout.session_id, task_id: taskId, offer_id: offerId },
  });
  assert.equal(verified.success, true);
}

test('a tasker sets up payouts in the sandbox, is paid on release and sees it on Earnings; the poster reviews once', async () => {
  const poster = await createVerifiedUser({ prefix: 'earn-poster', body: { first_name: 'Paula', last_name: 'Poster' } });
  const tasker = await createVerifiedUser({
    prefix: 'earn-tasker',
    body: { first_name: 'Tom', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Gardening', level: 70 }] },
  });
  const title = `Weed the garden beds ${Date.now().toString(36)}`;

  // Payout setup through the sandbox onboarding page.
  const taskerPage = await signedInPage(browser, tasker);
  await taskerPage.goto('/earnings');
  await taskerPage.getByRole('heading', { level: 1, name: 'Earnings' }).waitFor();
  await taskerPage.getByText('No earnings yet').waitFor();
  const taskerStorage = await taskerPage.evaluate(() => Object.entries(localStorage));
  await screenshotBoth(browser, '/earnings', 'earnings-setup', { heading: 'Earnings', storage: taskerStorage });
  await taskerPage.getByRole('button', { name: 'Set up payouts' }).click();
  await taskerPage.waitForURL('**/sandbox/payouts/acct_sandbox_*');
  await taskerPage.getByRole('heading', { name: 'Set up payouts' }).waitFor();
  const onboardingUrl = taskerPage.url();
  for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
    const page = await newPage(browser, viewport);
    await page.goto(onboardingUrl);
    await screenshot(page, 'sandbox-payouts');
    await page.context().close();
  }
  await taskerPage.getByLabel('Account holder name').fill('Tom Tasker');
  await taskerPage.getByRole('button', { name: 'Save bank account' }).click();
  await taskerPage.waitForURL((url) => url.pathname === '/earnings' && url.search === '?payouts=done');
  await taskerPage.getByText('Payouts are set up. Released payments go to your bank account.').waitFor();
  await taskerPage.getByRole('heading', { name: 'Payouts are set up' }).waitFor();

  // The poster posts, the tasker offers, the poster pays; the tasker asks to be paid.
  const { access_token: posterToken } = await login(poster);
  const { access_token: taskerToken } = await login(tasker);
  const task = await api('/api/tasks', {
    method: 'POST',
    token: posterToken,
    body: { title, description: 'Four raised beds, weeds knee-high. Green bin on site.', category_id: 5, location: 'Brunswick VIC', budget_cents: 10000, due_date: inDays(5) },
  });
  const offer = await api(`/api/tasks/${task.id}/offers`, {
    method: 'POST',
    token: taskerToken,
    body: { amount_cents: 9000, message: 'I can do it Sunday, tools included.' },
  });
  await acceptAndPay(posterToken, task.id, offer.id);
  await taskerPage.goto('/earnings');
  const line = taskerPage.getByRole('listitem').filter({ has: taskerPage.getByRole('link', { name: title }) });
  await line.getByText('Held in escrow', { exact: true }).waitFor();
  await api(`/api/tasks/${task.id}/request-payment`, { method: 'POST', token: taskerToken });

  // The poster releases in the app.
  const posterPage = await signedInPage(browser, poster);
  await posterPage.goto(`/task/${task.id}`);
  await posterPage.getByRole('heading', { level: 1, name: title }).waitFor();
  await posterPage.getByRole('button', { name: 'Release payment' }).click();
  await posterPage.getByRole('dialog', { name: 'Release payment?' }).getByRole('button', { name: 'Release payment' }).click();
  await posterPage.getByRole('heading', { name: 'Task completed' }).waitFor();

  // The transfer waits for the tasker's identity check (their first payout); verifying in the
  // sandbox sends it.
  await taskerPage.reload();
  await line.getByText('Transfer waiting for your identity check', { exact: true }).waitFor();
  await taskerPage.getByText('Verify your identity to get paid').waitFor();
  await expectNoSeriousA11yViolations(taskerPage, 'earnings waiting for identity (1280 px)');
  await taskerPage.getByRole('button', { name: 'Verify your identity' }).click();
  await taskerPage.waitForURL('**/sandbox/identity/vs_sandbox_*');
  await taskerPage.getByRole('button', { name: 'Verify', exact: true }).click();
  await taskerPage.waitForURL((url) => url.pathname === '/settings');
  await taskerPage.getByText('Your identity is verified.').waitFor();

  // Earnings shows the payout: $90 less the $9 fee.
  await taskerPage.goto('/earnings');
  await line.getByText('Paid out', { exact: true }).waitFor();
  await line.getByText('$81.00').waitFor();
  const paidOut = taskerPage.locator('dt', { hasText: /^Paid out$/ }).locator('..');
  assert.match(await paidOut.innerText(), /\$81\.00/);
  await screenshotBoth(browser, '/earnings', 'earnings-paid-out', { heading: 'Earnings', storage: taskerStorage });

  // The poster reviews once: afterwards the form is replaced, also after a reload.
  await posterPage.getByRole('radio', { name: '5 stars' }).click();
  await posterPage.getByLabel('Your review').fill('Beds look brand new. Thanks Tom!');
  await posterPage.getByRole('button', { name: 'Post review' }).click();
  await posterPage.getByText('You reviewed this task').waitFor();
  await posterPage.reload();
  await posterPage.getByRole('heading', { name: 'Task completed' }).waitFor();
  await posterPage.getByText('You reviewed this task').waitFor();
  assert.equal(await posterPage.getByRole('button', { name: 'Post review' }).count(), 0);

  // The poster's receipt.
  await posterPage.goto('/payments');
  await posterPage.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
  const receipt = posterPage.getByRole('article', { name: `Receipt for ${title}` });
  await receipt.getByText('Released to the tasker').waitFor();
  assert.match(await receipt.innerText(), /\$90\.00/);
  assert.match(await receipt.innerText(), /\$9\.00/);
  const posterStorage = await posterPage.evaluate(() => Object.entries(localStorage));
  await screenshotBoth(browser, '/payments', 'payments-history', { heading: 'Payments', storage: posterStorage });
});

test('a poster invites a tasker from their profile; the invitation reaches the tasker live and shows under Unread only', async () => {
  const poster = await createVerifiedUser({ prefix: 'invite-poster', body: { first_name: 'Ivy', last_name: 'Inviter' } });
  const tasker = await createVerifiedUser({
    prefix: 'invite-tasker',
    body: { first_name: 'Theo', last_name: 'Tiler', account_type: 'tasker', skills: [{ name: 'Tiling', level: 90 }] },
  });
  const title = `Retile the bathroom ${Date.now().toString(36)}`;
  const { access_token: posterToken } = await login(poster);
  const taskerSession = await login(tasker);
  await api('/api/tasks', {
    method: 'POST',
    token: posterToken,
    body: { title, description: 'Small bathroom, about 6 square metres of floor tiles.', category_id: 2, location: 'Fitzroy VIC', budget_cents: 60000, due_date: inDays(10) },
  });

  const taskerPage = await signedInPage(browser, tasker);
  await taskerPage.goto('/notifications');
  await taskerPage.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
  await waitForTopic(taskerPage, `user:${taskerSession.user.id}`);

  const posterPage = await signedInPage(browser, poster);
  await posterPage.goto(`/profile/${taskerSession.user.id}`);
  await posterPage.getByRole('heading', { level: 1, name: /Theo/ }).waitFor();
  await posterPage.getByRole('button', { name: 'Invite to Task' }).click();
  const dialog = posterPage.getByRole('dialog');
  await dialog.getByRole('button', { name: new RegExp(`Invite .* to ${title}`) }).click();
  await dialog.getByText('Invited').waitFor();
  await screenshot(posterPage, 'invite-dialog');

  // Live on the tasker's open notifications page, and still there under "Unread only"; its link opens the task.
  const invitation = taskerPage.getByRole('listitem').filter({ hasText: 'Task invitation' });
  await invitation.getByText(title, { exact: false }).waitFor();
  await taskerPage.getByRole('checkbox', { name: 'Unread only' }).check();
  await invitation.waitFor();
  await invitation.getByRole('link').click();
  await taskerPage.getByRole('heading', { level: 1, name: title }).waitFor();
  assert.match(taskerPage.url(), /\/task\//);
});
