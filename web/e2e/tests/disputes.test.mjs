// Disputes end to end, three browser contexts against the real server: after the poster paid and
// the task is assigned, the poster opens a dispute; the tasker's open task page shows it live (and
// can no longer ask to be paid); an operator (an address in ADMIN_EMAILS, set by run.mjs) finds it
// in the queue reached from the account menu and resolves it with a partial refund; both parties
// then see the outcome with its amounts without reloading. A non-operator is turned away from the queue.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { api, createVerifiedUser, inDays, launch, login, newPage, operatorAccount, screenshot, screenshotBoth, signedInPage, VIEWPORTS, waitForTopic } from '../browser.mjs';


let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const signedIn = (account, viewport) => signedInPage(browser, account, viewport);

test('a dispute opened by the poster reaches the tasker live and an operator resolves it with a partial refund', async () => {
  const poster = await createVerifiedUser({ prefix: 'dispute-poster', body: { first_name: 'Paula', last_name: 'Poster' } });
  const tasker = await createVerifiedUser({
    prefix: 'dispute-tasker',
    body: { first_name: 'Tom', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Furniture assembly', level: 80 }] },
  });
  const operator = await operatorAccount();
  const title = `Assemble two wardrobes ${Date.now().toString(36)}`;

  const { access_token: posterToken } = await login(poster);
  const task = await api('/api/tasks', {
    method: 'POST',
    token: posterToken,
    body: { title, description: 'Two PAX wardrobes, flat-packed in the bedroom. Allen keys supplied.', category_id: 1, location: 'Newtown NSW', budget_cents: 12000, due_date: inDays(7) },
  });
  const taskerSession = await login(tasker);
  await api(`/api/tasks/${task.id}/offers`, {
    method: 'POST',
    token: taskerSession.access_token,
    body: { amount_cents: 8500, message: "I've built dozens of these; I can come Saturday morning." },
  });

  // The poster pays through the sandbox checkout.
  const posterPage = await signedIn(poster);
  await posterPage.goto(`/task/${task.id}`);
  await posterPage.getByRole('heading', { level: 1, name: title }).waitFor();
  await posterPage.getByRole('button', { name: 'Accept & Pay' }).click();
  await posterPage.getByRole('dialog').getByRole('button', { name: 'Pay Securely' }).click();
  await posterPage.waitForURL('**/sandbox/checkout/**');
  await posterPage.getByRole('button', { name: /^Pay / }).click();
  await posterPage.waitForURL('**/payment-success?**');
  await posterPage.getByRole('heading', { name: 'Payment successful' }).waitFor();
  await posterPage.getByRole('link', { name: 'View Task' }).click();
  await posterPage.getByRole('heading', { name: /Assigned to/ }).waitFor();

  // The tasker keeps the task page open from here on and never reloads it.
  const taskerPage = await signedIn(tasker);
  await taskerPage.goto(`/task/${task.id}`);
  await taskerPage.getByRole('heading', { name: 'You got this task' }).waitFor();
  await waitForTopic(taskerPage, `task:${task.id}`);
  await waitForTopic(taskerPage, `user:${taskerSession.user.id}`);
  assert.equal(await taskerPage.getByTestId('dispute-card').count(), 0);

  // The poster opens a dispute; the form checks itself before anything is sent.
  await posterPage.getByRole('button', { name: 'Open a dispute' }).click();
  const dialog = posterPage.getByRole('dialog', { name: 'Open a dispute' });
  await dialog.getByText(/payment stays held until a Taskhub operator/).waitFor();
  await dialog.getByRole('button', { name: 'Open dispute' }).click();
  await dialog.getByText('Please choose a reason').waitFor();
  await dialog.getByLabel('Reason').selectOption({ label: "The task wasn't completed" });
  await dialog.getByLabel('Describe the problem').fill('Only one of the two wardrobes was built, and the tasker left early.');
  await screenshot(posterPage, 'dispute-dialog');
  await dialog.getByRole('button', { name: 'Open dispute' }).click();
  await posterPage.getByRole('heading', { name: 'Dispute open' }).waitFor();
  await posterPage.getByText(/won't be released automatically/).waitFor();
  assert.equal(await posterPage.getByRole('button', { name: 'Open a dispute' }).count(), 0);

  // The tasker sees it live, and can neither ask to be paid nor ask to cancel meanwhile.
  await taskerPage.getByRole('heading', { name: 'Dispute open' }).waitFor();
  await taskerPage.getByText("The task wasn't completed").waitFor();
  assert.ok(await taskerPage.getByRole('button', { name: 'Request payment' }).isDisabled());
  await taskerPage.getByText(/Cancelling isn't possible while a dispute is open/).waitFor();
  await screenshot(taskerPage, 'dispute-open-tasker');
  const posterStorage = await posterPage.evaluate(() => Object.entries(localStorage));
  await screenshotBoth(browser, `/task/${task.id}`, 'dispute-open-poster', { heading: title, storage: posterStorage });

  // A non-operator is turned away from the queue.
  const nosy = await newPage(browser, VIEWPORTS.mobile);
  await nosy.goto('/favicon.svg');
  await nosy.evaluate((entries) => entries.forEach(([k, v]) => localStorage.setItem(k, v)), posterStorage);
  await nosy.goto('/admin/disputes');
  await nosy.getByRole('heading', { level: 1, name: "This page isn't available" }).waitFor();
  await nosy.context().close();
  await assert.rejects(api('/api/admin/disputes', { token: posterToken }), /→ 403/);

  // The operator reaches the queue through the account menu and resolves with a partial refund.
  const operatorPage = await signedIn(operator);
  await operatorPage.waitForFunction(() => JSON.parse(localStorage.getItem('taskhub.session') ?? 'null')?.user?.is_operator === true);
  await operatorPage.getByRole('button', { name: /^Account menu for/ }).click();
  await operatorPage.getByRole('menuitem', { name: 'Operator console' }).click();
  await operatorPage.getByRole('heading', { level: 1, name: 'Operator console' }).waitFor();
  await operatorPage.getByRole('tab', { name: 'Disputes' }).click();
  await operatorPage.waitForURL(/\/admin\/disputes$/);
  const item = operatorPage.getByRole('article').filter({ has: operatorPage.getByRole('heading', { name: title }) });
  await item.getByText('Only one of the two wardrobes was built, and the tasker left early.').waitFor();
  await item.getByText('$85.00 (fee $8.50)').waitFor();
  await item.getByRole('radio', { name: /Refund part of it/ }).check();
  await item.getByLabel('Refund amount (AUD)').fill('85');
  await item.getByLabel('Note to both parties').fill('Half of the work was done: half of the payment goes back to the poster.');
  await item.getByRole('button', { name: 'Resolve dispute' }).click();
  await item.getByText('Please enter a refund between $0.01 and $84.99').waitFor();
  await item.getByLabel('Refund amount (AUD)').fill('30');
  await screenshot(operatorPage, 'dispute-queue-resolve');
  await item.getByRole('button', { name: 'Resolve dispute' }).click();
  await item.waitFor({ state: 'detached' });
  await operatorPage.getByRole('tab', { name: 'Resolved' }).click();
  await operatorPage.getByRole('article').filter({ hasText: title }).getByText('Partly refunded $30.00').waitFor();
  const operatorStorage = await operatorPage.evaluate(() => Object.entries(localStorage));
  await screenshotBoth(browser, '/admin/disputes', 'dispute-queue', { heading: 'Operator console', storage: operatorStorage });

  // Both parties see the outcome with its amounts, live.
  for (const page of [posterPage, taskerPage]) {
    await page.getByRole('heading', { name: 'Dispute resolved' }).waitFor();
    await page.getByTestId('dispute-outcome').filter({ hasText: 'Partly refunded $30.00' }).waitFor();
    await page.getByText('Half of the work was done: half of the payment goes back to the poster.').waitFor();
  }
  await posterPage.getByText(/\$30\.00 was refunded to you and the rest, \$55\.00, was released to/).waitFor();
  await taskerPage.getByText(/\$30\.00 was refunded to .+ and the rest, \$55\.00, was released to you \(\$49\.50 after the 10% service fee\)/).waitFor();
  await screenshot(posterPage, 'dispute-resolved-poster');
  await screenshot(taskerPage, 'dispute-resolved-tasker');

  // The server agrees on the money.
  const payment = await api(`/api/tasks/${task.id}/payment`, { token: posterToken });
  assert.equal(payment.status, 'released');
  assert.equal(payment.refunded_cents, 3000);
  const after = await api(`/api/tasks/${task.id}`, { token: posterToken });
  assert.equal(after.status, 'completed');

  await operatorPage.context().close();
  await posterPage.context().close();
  await taskerPage.context().close();
});
