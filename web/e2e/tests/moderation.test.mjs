// Trust and safety end to end, against the real server: a tasker's public question with a
// disguised phone number is refused with the guard's message; the poster reports the tasker's
// offer from the task page; the operator's open console (ADMIN_EMAILS, set by run.mjs) shows the
// report without a reload and suspends the tasker from it; the poster's open page drops the
// withdrawn offer; the tasker's open page signs out when the server closes its socket (4003, the
// close code of a suspended account) and its sign-in then shows the suspension message; the
// console's audit log lists the action.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
  api,
  createVerifiedUser,
  expectNoSeriousA11yViolations,
  inDays,
  launch,
  login,
  OPERATOR_EMAIL,
  operatorAccount,
  screenshot,
  signedInPage,
  signInThroughUi,
  waitForTopic,
} from '../browser.mjs';

const KEEP_IT_ON_TASKHUB = 'Please keep contact details and payments on Taskhub until the task is assigned.';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('a reported offer reaches the open console live and the operator suspends its tasker', async () => {
  const poster = await createVerifiedUser({ prefix: 'moderation-poster', body: { first_name: 'Paula', last_name: 'Poster' } });
  const tasker = await createVerifiedUser({
    prefix: 'moderation-tasker',
    body: { first_name: 'Sam', last_name: 'Scammer', account_type: 'tasker', skills: [{ name: 'Cleaning', level: 70 }] },
  });
  const operator = await operatorAccount();
  const title = `End of lease clean ${Date.now().toString(36)}`;
  const { access_token: posterToken } = await login(poster);
  const task = await api('/api/tasks', {
    method: 'POST',
    token: posterToken,
    body: { title, description: 'Two-bedroom flat, carpets included. Keys with the agent.', category_id: 1, location: 'Newtown NSW', budget_cents: 30000, due_date: inDays(6) },
  });

  // The tasker's question with a disguised phone number is refused with the guard's message.
  const taskerPage = await signedInPage(browser, tasker);
  await taskerPage.goto(`/task/${task.id}`);
  await taskerPage.getByRole('heading', { level: 1, name: title }).waitFor();
  await taskerPage.getByLabel('Ask a question').fill('Happy to help, call me on 0 4 1 2 - 3 4 5 - 6 7 8 and we can sort it out');
  await taskerPage.getByRole('button', { name: 'Post question' }).click();
  await taskerPage.getByText(KEEP_IT_ON_TASKHUB).waitFor();
  await screenshot(taskerPage, 'moderation-question-refused');
  const questions = await api(`/api/tasks/${task.id}/questions`);
  assert.equal(questions.items.length, 0, 'the refused question was not posted');

  const { access_token: taskerToken } = await login(tasker);
  const offer = await api(`/api/tasks/${task.id}/offers`, {
    method: 'POST',
    token: taskerToken,
    body: { amount_cents: 9000, message: 'Cheapest in town. Accept and I will explain how to get a discount.' },
  });

  // The operator's console is open on the queue before the report is filed.
  const operatorPage = await signedInPage(browser, operator);
  await operatorPage.getByRole('button', { name: /^Account menu for/ }).click();
  await operatorPage.getByRole('menuitem', { name: 'Operator console' }).click();
  await operatorPage.getByRole('heading', { level: 1, name: 'Operator console' }).waitFor();
  await operatorPage.getByText('No open reports. Nothing needs a decision.').or(operatorPage.getByRole('list', { name: 'Open reports' })).waitFor();
  await waitForTopic(operatorPage, 'admin');

  // The poster reports the offer from the task page.
  const posterPage = await signedInPage(browser, poster);
  await posterPage.goto(`/task/${task.id}`);
  const offerItem = posterPage.locator(`[data-offer-id="${offer.id}"]`);
  await offerItem.getByText('Cheapest in town.', { exact: false }).waitFor();
  await offerItem.getByRole('button', { name: 'Report this offer' }).click();
  const dialog = posterPage.getByRole('dialog', { name: 'Report this offer' });
  await dialog.getByRole('radio', { name: 'Scam or fraud' }).check();
  await dialog.getByLabel(/Details/).fill('Asked to be paid outside Taskhub for a discount.');
  await screenshot(posterPage, 'moderation-report-dialog');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await dialog.getByText(/A Taskhub moderator will review this offer/).waitFor();
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The console shows it without a reload, and the operator suspends the tasker from it.
  const card = operatorPage.getByRole('article').filter({ has: operatorPage.getByRole('heading', { name: /^Offer message by Sam/ }) });
  await card.getByText('Cheapest in town. Accept and I will explain how to get a discount.').first().waitFor();
  await card.getByText(/1 reporter · Scam or fraud/).waitFor();
  await expectNoSeriousA11yViolations(operatorPage, 'console with a report');
  await card.getByLabel('Note').fill('Steering a poster to pay off the platform.');
  await card.getByLabel(/Suspension days/).fill('30');
  await screenshot(operatorPage, 'moderation-console-report');
  await card.getByRole('button', { name: 'Suspend' }).click();
  await operatorPage.getByText('Author suspended', { exact: true }).first().waitFor();
  await card.waitFor({ state: 'detached' });
  // The suspension withdrew the tasker's pending offer: the poster's open page drops it live.
  await offerItem.waitFor({ state: 'detached' });

  // The tasker's page, open on the task all along, is signed out the moment the server closes its
  // socket with 4003 (only that close code says so), and its sign-in shows the suspension message.
  await taskerPage.getByText('Your account is suspended', { exact: true }).waitFor();
  await taskerPage.getByRole('link', { name: 'Sign In' }).first().waitFor();
  assert.equal(await taskerPage.evaluate(() => localStorage.getItem('taskhub.session')), null, 'the session is gone');
  await screenshot(taskerPage, 'moderation-suspended-signed-out');
  await taskerPage.getByRole('link', { name: 'Sign In' }).first().click();
  await signInThroughUi(taskerPage, tasker);
  // The login form's message (not the toast above): the 30-day suspension's end date.
  await taskerPage.getByRole('alert').filter({ hasText: /Your account is suspended until \d+ \w+ \d{4}\./ }).first().waitFor();
  await screenshot(taskerPage, 'moderation-suspended-login');
  assert.equal(await taskerPage.evaluate(() => localStorage.getItem('taskhub.session')), null, 'still signed out');

  // The audit log lists the suspension with its note.
  await operatorPage.getByRole('tab', { name: 'Audit log' }).click();
  const entry = operatorPage.getByRole('list', { name: 'Audit log' }).getByRole('listitem').filter({ hasText: 'Steering a poster to pay off the platform.' });
  await entry.getByText('Suspended', { exact: true }).waitFor();
  await entry.getByText(new RegExp(OPERATOR_EMAIL.replace('.', '\\.'))).waitFor();
  await screenshot(operatorPage, 'moderation-audit-log');

  for (const page of [taskerPage, operatorPage, posterPage]) await page.context().close();
});
