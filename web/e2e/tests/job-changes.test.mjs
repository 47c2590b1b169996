// Changes after assignment end to end, through the sandbox checkout, two browser contexts that
// never reload: the tasker asks for $40 more, the poster approves and pays the difference and the
// tasker's page shows it paid; the tasker proposes a new date, the poster accepts and both pages
// show it; the poster releases with a $10 tip; the tasker's Earnings lists the original payment,
// the increase and the tip with their fee lines (the tip has none).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { api, createVerifiedUser, inDays, launch, login, screenshot, signedInPage, waitForTopic } from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const signedIn = (account) => signedInPage(browser, account);

/** Pays the sandbox checkout the page is on by card and waits for the success page. */
async function payOnSandbox(page) {
  await page.waitForURL('**/sandbox/checkout/**');
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL('**/payment-success?**');
  await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
}

test('a price increase, a new date and a tip reach both parties live and land in Earnings', async () => {
  const poster = await createVerifiedUser({ prefix: 'changes-poster', body: { first_name: 'Petra', last_name: 'Poster' } });
  const tasker = await createVerifiedUser({
    prefix: 'changes-tasker',
    body: { first_name: 'Theo', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Fencing', level: 80 }] },
  });
  const title = `Replace the back fence ${Date.now().toString(36)}`;
  const { access_token: posterToken } = await login(poster);
  const task = await api('/api/tasks', {
    method: 'POST',
    token: posterToken,
    body: { title, description: 'Twelve metres of paling fence along the back of the yard.', category_id: 1, location: 'Newtown NSW', budget_cents: 12000, due_date: inDays(7) },
  });
  const taskerSession = await login(tasker);
  await api(`/api/tasks/${task.id}/offers`, {
    method: 'POST',
    token: taskerSession.access_token,
    body: { amount_cents: 8500, message: 'I can start on Saturday and finish in a day.' },
  });

  const posterPage = await signedIn(poster);
  await posterPage.goto(`/task/${task.id}`);
  await posterPage.getByRole('heading', { level: 1, name: title }).waitFor();
  await posterPage.getByRole('button', { name: 'Accept & Pay' }).click();
  await posterPage.getByRole('dialog').getByRole('button', { name: 'Pay Securely' }).click();
  await payOnSandbox(posterPage);
  await posterPage.getByRole('link', { name: 'View Task' }).click();
  await posterPage.getByRole('heading', { name: /Assigned to/ }).waitFor();
  await waitForTopic(posterPage, `task:${task.id}`);

  const taskerPage = await signedIn(tasker);
  await taskerPage.goto(`/task/${task.id}`);
  await taskerPage.getByRole('heading', { name: 'You got this task' }).waitFor();
  await waitForTopic(taskerPage, `task:${task.id}`);
  await waitForTopic(taskerPage, `user:${taskerSession.user.id}`);

  // The tasker asks for $40 more; the poster's open page shows it with the new total and the fee.
  await taskerPage.getByRole('button', { name: 'Increase price' }).click();
  await taskerPage.getByLabel('Extra amount ($)').fill('40');
  await taskerPage.getByLabel('Why the price should increase').fill('The fence is six metres longer than described.');
  await taskerPage.getByRole('button', { name: 'Send request' }).click();
  await taskerPage.getByText(/Waiting for .+ to approve your price increase of \$40\.00/).waitFor();
  const request = posterPage.getByRole('region', { name: 'Price increase request' });
  await request.getByText(/asked for \$40\.00 more/).waitFor();
  await request.getByText('New total: $125.00').waitFor();
  await request.getByText(/Service fee on the increase: \$4\.00/).waitFor();
  await screenshot(posterPage, 'price-increase-request');

  // The poster approves and pays the difference; the tasker's page shows it paid, live.
  await request.getByRole('button', { name: 'Approve & pay $40.00' }).click();
  await payOnSandbox(posterPage);
  await posterPage.getByText('The price increase is paid and held with the rest of the payment.').waitFor();
  await taskerPage.getByText('Price increase of $40.00 paid and held with the payment.').waitFor();
  await posterPage.getByRole('link', { name: 'View Task' }).click();
  await posterPage.getByText('Price increase of $40.00 paid and held with the payment.').waitFor();
  await waitForTopic(posterPage, `task:${task.id}`);

  // The tasker proposes a new date; the poster accepts; both pages show it.
  const newDate = inDays(10);
  await taskerPage.getByRole('button', { name: 'Propose a new date' }).click();
  await taskerPage.getByLabel('New date').fill(newDate);
  await taskerPage.getByLabel(/Time window/).fill('8am-12pm');
  await taskerPage.getByRole('button', { name: 'Send proposal' }).click();
  const proposal = posterPage.getByRole('region', { name: 'Date proposal' });
  await proposal.getByText(`New date proposed: ${newDate} (8am-12pm)`).waitFor();
  await proposal.getByText(/left to answer/).waitFor();
  await proposal.getByRole('button', { name: 'Accept new date' }).click();
  for (const page of [posterPage, taskerPage]) await page.getByText(`Due ${newDate}`).waitFor();

  // The poster releases with a $10 tip and pays it.
  await posterPage.getByRole('button', { name: 'Release payment' }).click();
  const dialog = posterPage.getByRole('dialog', { name: 'Release payment?' });
  await dialog.getByLabel(/Add a tip/).fill('10');
  await dialog.getByRole('button', { name: 'Release payment' }).click();
  await payOnSandbox(posterPage);
  await posterPage.getByText('Your tip was paid to your tasker in full.').waitFor();

  // The tasker's Earnings: the original, the increase and the tip, each with its fee line.
  await taskerPage.goto('/earnings');
  await taskerPage.getByRole('heading', { level: 1, name: 'Earnings' }).waitFor();
  const lines = taskerPage.getByRole('listitem').filter({ hasText: title });
  await lines.filter({ hasText: '$85.00 paid · $8.50 fee' }).waitFor();
  await lines.filter({ hasText: 'Price increase' }).filter({ hasText: '$40.00 paid · $4.00 fee' }).waitFor();
  await lines.filter({ hasText: 'Tip' }).filter({ hasText: '$10.00 paid · $0.00 fee' }).waitFor();
  await screenshot(taskerPage, 'earnings-with-increase-and-tip');

  const payment = await api(`/api/tasks/${task.id}/payment`, { token: posterToken });
  assert.equal(payment.status, 'released');
  assert.equal(payment.total_cents, 12500);
});
