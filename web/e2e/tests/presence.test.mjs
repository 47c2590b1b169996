// Presence end to end, against the real server, with three browsers besides the poster's: two
// anonymous visitors and a tasker open a task and the poster's page counts them live ("N taskers
// viewing"), and one fewer once a visitor closes the tab. After the tasker is assigned, the tasker
// types: the poster sees "typing…", then the message; the poster's tab shows it, so the tasker
// sees "Seen" under it. Each sees the other "Online" in Messages, and once the tasker closes the
// app the poster sees "Last seen just now".
import { after, before, test } from 'node:test';

import { api, createVerifiedUser, inDays, launch, login, newPage, signedInPage, waitForTopic } from '../browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Pays the tasker's offer through the sandbox checkout: the task is assigned. */
async function assign(posterToken, taskerToken, taskId) {
  const offer = await api(`/api/tasks/${taskId}/offers`, { method: 'POST', token: taskerToken, body: { amount_cents: 8500, message: 'Sunday suits me.' } });
  const checkout = await api('/api/payments/checkout-session', { method: 'POST', token: posterToken, body: { task_id: taskId, offer_id: offer.id } });
  const paid = await fetch(checkout.url, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ action: 'pay', card_number: '4242 4242 4242 4242' }),
  });
  if (paid.status !== 303) throw new Error(`sandbox checkout answered ${paid.status}`);
  await api('/api/payments/verify', { method: 'POST', token: posterToken, body: { session_id: checkout.session_id, task_id: taskId, offer_id: offer.id } });
}

async function openTask(page, taskId) {
  await page.goto(`/task/${taskId}`);
  await waitForTopic(page, `task:${taskId}`);
}

test('the poster sees viewers come and go, the tasker typing, and the tasker sees Seen', async () => {
  const posterAccount = await createVerifiedUser({ prefix: 'presence-poster', body: { first_name: 'Paula', last_name: 'Poster' } });
  const taskerAccount = await createVerifiedUser({
    prefix: 'presence-tasker',
    body: { first_name: 'Tom', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Gardening', level: 80 }] },
  });
  const posterToken = (await login(posterAccount)).access_token;
  const taskerToken = (await login(taskerAccount)).access_token;
  const task = await api('/api/tasks', {
    method: 'POST',
    token: posterToken,
    body: { title: `Mow the lawn ${Date.now().toString(36)}`, description: 'Front and back, about 200 square metres.', category_id: 2, location: 'Newtown NSW', budget_cents: 9000, due_date: inDays(7) },
  });

  const poster = await signedInPage(browser, posterAccount);
  await openTask(poster, task.id);
  const viewers = poster.getByTestId('viewers-note');

  const firstVisitor = await newPage(browser);
  await openTask(firstVisitor, task.id);
  await viewers.getByText('1 tasker viewing').waitFor();
  const secondVisitor = await newPage(browser);
  await openTask(secondVisitor, task.id);
  await viewers.getByText('2 taskers viewing').waitFor();
  const tasker = await signedInPage(browser, taskerAccount);
  await openTask(tasker, task.id);
  await viewers.getByText('3 taskers viewing').waitFor();
  await firstVisitor.getByTestId('viewers-note').getByText('4 people viewing').waitFor();

  await firstVisitor.context().close();
  await viewers.getByText('2 taskers viewing').waitFor();

  await assign(posterToken, taskerToken, task.id);
  for (const page of [poster, tasker]) {
    await page.reload();
    await page.getByRole('heading', { name: 'Messages' }).waitFor();
  }

  // Each sees the other online (a socket open anywhere).
  await poster.getByTestId('online-note').getByText('Online', { exact: true }).waitFor();
  await tasker.getByTestId('online-note').getByText('Online', { exact: true }).waitFor();

  await tasker.getByLabel('Message', { exact: true }).pressSequentially('See you on Sun', { delay: 30 });
  await poster.getByText('typing…').waitFor();
  await tasker.getByRole('button', { name: 'Send', exact: true }).click();
  await poster.getByText('See you on Sun').waitFor();
  await poster.getByText('typing…').waitFor({ state: 'detached' });
  await tasker.getByText(/^Seen \d{1,2}:\d{2}/).waitFor();

  // The tasker closes the app: the poster sees when they were last seen.
  await tasker.context().close();
  await poster.getByTestId('online-note').getByText('Last seen just now').waitFor();

  await secondVisitor.context().close();
  await poster.context().close();
});
