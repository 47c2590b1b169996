// Cancellation after assignment, two browser contexts against the real server: the tasker asks to
// cancel with a reason; the poster's open task page shows the request live with the 48-hour
// countdown; the poster accepts; both see the task cancelled and the refund, without reloading.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { api, createVerifiedUser, inDays, launch, login, screenshot, signedInPage, VIEWPORTS, waitForTopic } from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const signedIn = (account, viewport) => signedInPage(browser, account, viewport);

test('a cancellation asked by the tasker and accepted by the poster refunds the payment, shown to both', async () => {
  const poster = await createVerifiedUser({ prefix: 'cancel-poster', body: { first_name: 'Paula', last_name: 'Poster' } });
  const tasker = await createVerifiedUser({
    prefix: 'cancel-tasker',
    body: { first_name: 'Tom', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Gardening', level: 70 }] },
  });
  const title = `Mow the back lawn ${Date.now().toString(36)}`;
  const posterSession = await login(poster);
  const task = await api('/api/tasks', {
    method: 'POST',
    token: posterSession.access_token,
    body: { title, description: 'Back lawn, about 80 square metres; mower in the shed.', category_id: 1, location: 'Glebe NSW', budget_cents: 9000, due_date: inDays(5) },
  });
  const taskerSession = await login(tasker);
  await api(`/api/tasks/${task.id}/offers`, { method: 'POST', token: taskerSession.access_token, body: { amount_cents: 8500, message: 'Happy to do it on Sunday.' } });

  const posterPage = await signedIn(poster);
  await posterPage.goto(`/task/${task.id}`);
  await posterPage.getByRole('heading', { level: 1, name: title }).waitFor();
  await posterPage.getByRole('button', { name: 'Accept & Pay' }).click();
  await posterPage.getByRole('dialog').getByRole('button', { name: 'Pay Securely' }).click();
  await posterPage.waitForURL('**/sandbox/checkout/**');
  await posterPage.getByRole('button', { name: /^Pay / }).click();
  await posterPage.waitForURL('**/payment-success?**');
  await posterPage.getByRole('link', { name: 'View Task' }).click();
  await posterPage.getByRole('heading', { name: /Assigned to/ }).waitFor();
  await posterPage.getByText(/Your payment of \$85\.00 is then refunded in full/).waitFor();
  await waitForTopic(posterPage, `task:${task.id}`);
  await waitForTopic(posterPage, `user:${posterSession.user.id}`);

  // The tasker asks to cancel; a reason is required.
  const taskerPage = await signedIn(tasker, VIEWPORTS.mobile);
  await taskerPage.goto(`/task/${task.id}`);
  await taskerPage.getByRole('heading', { name: 'You got this task' }).waitFor();
  await waitForTopic(taskerPage, `task:${task.id}`);
  await taskerPage.getByRole('button', { name: 'Ask to cancel' }).click();
  const dialog = taskerPage.getByRole('dialog', { name: 'Ask to cancel this task' });
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await dialog.getByText('Please give a reason for cancelling').waitFor();
  await dialog.getByLabel('Reason for cancelling').fill('My mower broke and the shop needs a week to fix it.');
  await screenshot(taskerPage, 'cancellation-dialog');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await taskerPage.getByRole('heading', { name: 'You asked to cancel' }).waitFor();
  await taskerPage.getByTestId('cancellation-countdown').filter({ hasText: /^Cancels automatically in 4[78] h( \d+ min)? unless declined\.$/ }).waitFor();

  // The poster sees it live, with the countdown and what happens to the money.
  await posterPage.getByRole('heading', { name: /asked to cancel$/ }).waitFor();
  await posterPage.getByText('My mower broke and the shop needs a week to fix it.').waitFor();
  await posterPage.getByTestId('cancellation-countdown').filter({ hasText: /^Cancels automatically in 4[78] h( \d+ min)? unless declined\.$/ }).waitFor();
  await posterPage.getByText(/If you accept, the task is cancelled\. Your payment of \$85\.00 is then refunded in full\./).waitFor();
  await screenshot(posterPage, 'cancellation-request-poster');
  await posterPage.getByRole('button', { name: 'Accept cancellation' }).click();

  // Both see the refund.
  await posterPage.getByTestId('refund-summary').filter({ hasText: 'Your payment of $85.00 has been refunded.' }).waitFor();
  await taskerPage.getByTestId('refund-summary').filter({ hasText: /The payment of \$85\.00 has been refunded to / }).waitFor();
  await screenshot(posterPage, 'cancellation-refunded-poster');
  await screenshot(taskerPage, 'cancellation-refunded-tasker');
  const payment = await api(`/api/tasks/${task.id}/payment`, { token: posterSession.access_token });
  assert.equal(payment.status, 'refunded');

  await posterPage.context().close();
  await taskerPage.context().close();
});
