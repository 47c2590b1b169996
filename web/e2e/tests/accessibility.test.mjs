// axe-core on every screen of the app, at 390 px and 1280 px: no serious or critical violation.
// Each screen is one line of `screens`: who looks at it, where, which heading says it is ready,
// and optionally what to do first (open a dialog, walk to a wizard step). A new screen is a new line.
import { after, before, test } from 'node:test';

import {
  api,
  createVerifiedUser,
  describeA11yViolations,
  inDays,
  launch,
  login,
  newPage,
  seriousA11yViolations,
  VIEWPORTS,
  waitForMail,
  linkPath,
  BASE_URL,
} from '../browser.mjs';

/** Signed up and verified with a fixed address: run.mjs lists it in ADMIN_EMAILS. */
const OPERATOR_EMAIL = 'a11y-operator@example.com';

const clickButton = (name) => (page) => page.getByRole('button', { name, exact: true }).first().click();
const openDialog = (button, title) => async (page) => {
  await clickButton(button)(page);
  await page.getByRole('dialog', { name: title }).waitFor();
};
/** Step 1 shows the missing-fields error; 2 to 4 are reached with valid answers. */
const wizardTo = (step) => async (page) => {
  if (step === 1) {
    await clickButton('Next')(page);
    return page.getByRole('alert').waitFor();
  }
  await page.getByLabel('Task title').fill('Hang three picture frames');
  await page.getByLabel('Description').fill('Three frames, plaster walls, hooks supplied.');
  await page.getByLabel('Category').selectOption({ label: 'Handyman' });
  await clickButton('Next')(page);
  if (step === 2) return;
  await page.getByLabel('Location').fill('Newtown NSW');
  await page.keyboard.press('Escape');
  await clickButton('Next')(page);
  if (step === 3) return;
  await page.getByLabel('Budget (AUD)').fill('60');
  await page.getByLabel('Due date').fill(inDays(5));
  await clickButton('Next')(page);
};

// [name, who ('visitor' | 'poster' | 'tasker' | 'operator'), path (or fixtures => path), h1 (text, or true for any), then?, only?]
const screens = [
  ['home', 'visitor', '/', 'Get anything done by trusted local taskers'],
  ['mobile menu', 'visitor', '/', true, openDialog('Open menu', 'Menu'), 'mobile'],
  ['about', 'visitor', '/about', 'About Us'],
  ['how it works', 'visitor', '/how-it-works', 'How It Works'],
  ['categories', 'visitor', '/categories', 'Browse by Category'],
  ['help', 'visitor', '/help', 'Help Center'],
  ['trust', 'visitor', '/trust', 'Trust & Safety'],
  ['safety', 'visitor', '/safety', 'Safety Tips'],
  ['covid', 'visitor', '/covid', 'COVID-19 Information'],
  ['faq', 'visitor', '/faq', 'Frequently Asked Questions'],
  ['contact', 'visitor', '/contact', 'Contact Us'],
  ['terms', 'visitor', '/terms', 'Terms of Service'],
  ['privacy', 'visitor', '/privacy', 'Privacy Policy'],
  ['cookies', 'visitor', '/cookies', 'Cookie Policy'],
  ['guidelines', 'visitor', '/guidelines', 'Community Guidelines'],
  ['sitemap', 'visitor', '/sitemap', 'Sitemap'],
  ['not found', 'visitor', '/no-such-page', 'Oops! Page not found'],
  ['become a tasker', 'visitor', '/become-tasker', "Earn money doing what you're good at"],
  ['login', 'visitor', '/login', 'Welcome back'],
  ['signup', 'visitor', '/signup', 'Create your Taskhub account'],
  ['forgot password', 'visitor', '/forgot-password', 'Forgot your password?'],
  ['reset password', 'visitor', (f) => f.resetPath, true],
  ['browse', 'visitor', '/tasks', 'Available Tasks'],
  ['browse with filters', 'visitor', '/tasks', 'Available Tasks', clickButton('Filters')],
  ['task as visitor', 'visitor', (f) => `/task/${f.offeredTask}`, (f) => f.offeredTitle],
  ['report dialog', 'tasker', (f) => `/task/${f.offeredTask}`, (f) => f.offeredTitle, openDialog('Report', 'Report this task')],
  ['task as poster', 'poster', (f) => `/task/${f.offeredTask}`, (f) => f.offeredTitle],
  ['accept and pay dialog', 'poster', (f) => `/task/${f.offeredTask}`, (f) => f.offeredTitle, openDialog('Accept & Pay', 'Accept offer and pay')],
  ['edit task dialog', 'poster', (f) => `/task/${f.offeredTask}`, (f) => f.offeredTitle, openDialog('Edit task', 'Edit task')],
  ['cancel task dialog', 'poster', (f) => `/task/${f.offeredTask}`, (f) => f.offeredTitle, openDialog('Cancel task', 'Cancel this task?')],
  ['task as tasker with an offer', 'tasker', (f) => `/task/${f.offeredTask}`, (f) => f.offeredTitle],
  ['offer form with errors', 'tasker', (f) => `/task/${f.freshTask}`, (f) => f.freshTitle, clickButton('Submit Offer')],
  ['post task step 1 with error', 'poster', '/post-task', 'Post a Task', wizardTo(1)],
  ['post task step 2', 'poster', '/post-task', 'Post a Task', wizardTo(2)],
  ['post task step 3', 'poster', '/post-task', 'Post a Task', wizardTo(3)],
  ['post task review', 'poster', '/post-task', 'Post a Task', wizardTo(4)],
  ['my tasks', 'poster', '/my-tasks', 'My Tasks'],
  ['my offers', 'tasker', '/my-tasks', 'My Tasks', (page) => page.getByRole('tab', { name: "Tasks I'm Offering On" }).click()],
  ['notifications', 'poster', '/notifications', 'Notifications'],
  ['account menu', 'poster', '/', true, (page) => page.getByRole('button', { name: /Account menu/ }).click(), 'desktop'],
  ['settings', 'poster', '/settings', 'Account Settings'],
  ['settings with an identity check under way', 'tasker', '/settings', 'Account Settings'],
  ['identity sandbox', 'visitor', (f) => f.identityPath, 'Verify your identity'],
  ['own profile', 'tasker', (f) => `/profile/${f.taskerId}`, true],
  ["someone else's profile", 'poster', (f) => `/profile/${f.taskerId}`, true],
  ['payment success', 'poster', (f) => f.paymentSuccessPath, true],
  ['assigned task as poster', 'poster', (f) => `/task/${f.assignedTask}`, (f) => f.assignedTitle],
  ['release payment dialog', 'poster', (f) => `/task/${f.assignedTask}`, (f) => f.assignedTitle, openDialog('Release payment', 'Release payment?')],
  ['open dispute dialog', 'poster', (f) => `/task/${f.assignedTask}`, (f) => f.assignedTitle, openDialog('Open a dispute', 'Open a dispute')],
  ['assigned task as tasker', 'tasker', (f) => `/task/${f.assignedTask}`, (f) => f.assignedTitle],
  ['ask to cancel dialog', 'tasker', (f) => `/task/${f.assignedTask}`, (f) => f.assignedTitle, openDialog('Ask to cancel', 'Ask to cancel this task')],
  ['console: reports', 'operator', '/admin', 'Operator console'],
  ['console: users', 'operator', '/admin/users', 'Operator console'],
  ['console: dispute queue', 'operator', '/admin/disputes', 'Operator console'],
  ['console: payouts', 'operator', '/admin/payouts', 'Operator console'],
  ['console: audit log', 'operator', '/admin/audit', 'Operator console'],
  ['task alerts', 'tasker', '/settings/alerts', 'Task alerts'],
  ['new alert form', 'tasker', '/settings/alerts', 'Task alerts', clickButton('New alert')],
  ['notification settings', 'tasker', '/settings/notifications', 'Notifications'],
  ['earnings', 'tasker', '/earnings', 'Earnings'],
  ['payments history', 'poster', '/payments', 'Payments'],
  ['invite dialog', 'poster', (f) => `/profile/${f.taskerId}`, true, (page) => page.getByRole('button', { name: 'Invite to Task' }).click().then(() => page.getByRole('dialog').waitFor())],
];

let browser;
let fixtures;
const sessions = {};

async function verifiedOperator() {
  const password = 'correct-horse-7';
  const body = { email: OPERATOR_EMAIL, password, first_name: 'Olive', last_name: 'Operator', account_type: 'customer' };
  await api('/api/auth/signup', { method: 'POST', body });
  const mail = await waitForMail(OPERATOR_EMAIL);
  const token = new URL(linkPath(mail.text, '/verify-email'), BASE_URL).searchParams.get('token');
  await api('/api/auth/verify', { method: 'POST', body: { token } });
  return { email: OPERATOR_EMAIL, password };
}

async function postTask(token, title) {
  const body = { title, description: 'Two-door wardrobe, flat-packed in the bedroom.', category_id: 2, location: 'Newtown NSW', budget_cents: 12000, due_date: inDays(7) };
  return api('/api/tasks', { method: 'POST', token, body });
}

/** A task paid through the sandbox checkout, with a message, whose tasker asked to be paid. */
async function assignedTask(posterToken, taskerToken) {
  const task = await postTask(posterToken, `Mow the lawn ${Date.now().toString(36)}`);
  const offer = await api(`/api/tasks/${task.id}/offers`, { method: 'POST', token: taskerToken, body: { amount_cents: 8500, message: 'Sunday suits me.' } });
  const checkout = await api('/api/payments/checkout-session', { method: 'POST', token: posterToken, body: { task_id: task.id, offer_id: offer.id } });
  const paid = await fetch(checkout.url, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ action: 'pay', card_number: '4242 4242 4242 4242' }),
  });
  if (paid.status !== 303) throw new Error(`sandbox checkout answered ${paid.status}`);
  const ids = { session_id: checkout.session_id, task_id: task.id, offer_id: offer.id };
  await api('/api/payments/verify', { method: 'POST', token: posterToken, body: ids });
  await api(`/api/tasks/${task.id}/messages`, { method: 'POST', token: taskerToken, body: { body: 'On my way at 9.' } });
  await api(`/api/tasks/${task.id}/request-payment`, { method: 'POST', token: taskerToken });
  return { assignedTask: task.id, assignedTitle: task.title, paymentSuccessPath: `/payment-success?${new URLSearchParams(ids)}` };
}

before(async () => {
  browser = await launch();
  const accounts = {
    poster: await createVerifiedUser({ prefix: 'a11y-poster', body: { first_name: 'Paula', last_name: 'Poster' } }),
    tasker: await createVerifiedUser({
      prefix: 'a11y-tasker',
      body: { first_name: 'Tom', last_name: 'Tasker', account_type: 'tasker', skills: [{ name: 'Furniture assembly', level: 80 }] },
    }),
    operator: await verifiedOperator(),
  };
  for (const [who, account] of Object.entries(accounts)) sessions[who] = await login(account);
  const poster = sessions.poster.access_token;
  const offered = await postTask(poster, `Assemble a wardrobe ${Date.now().toString(36)}`);
  const fresh = await postTask(poster, `Build a bookshelf ${Date.now().toString(36)}`);
  await api(`/api/tasks/${offered.id}/offers`, {
    method: 'POST',
    token: sessions.tasker.access_token,
    body: { amount_cents: 9000, message: 'I can come on Saturday morning.' },
  });
  const assigned = await assignedTask(poster, sessions.tasker.access_token);
  const identity = await api('/api/me/identity/session', { method: 'POST', token: sessions.tasker.access_token });
  fixtures = {
    ...assigned,
    identityPath: new URL(identity.url).pathname,
    offeredTask: offered.id,
    offeredTitle: offered.title,
    freshTask: fresh.id,
    freshTitle: fresh.title,
    taskerId: sessions.tasker.user.id,
    resetPath: '/reset-password?token=not-a-real-token',
  };
});
after(async () => {
  await browser?.close();
});

/** A page for `who`: signed in by handing the app a fresh session of its own. */
async function pageFor(who, viewport) {
  const page = await newPage(browser, viewport);
  if (who !== 'visitor') {
    const account = sessions[who];
    const session = await login({ email: account.user.email, password: 'correct-horse-7' });
    await page.goto('/favicon.svg');
    await page.evaluate((value) => localStorage.setItem('taskhub.session', value), JSON.stringify(session));
  }
  return page;
}

/** Waits for the network and for running animations (a half-faded element would fail contrast). */
async function settle(page) {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), null, { timeout: 5_000 }).catch(() => {});
  await page.waitForTimeout(300);
}

for (const [size, viewport] of Object.entries(VIEWPORTS)) {
  test(`every screen at ${viewport.width} px has no serious or critical axe-core violation`, async () => {
    const found = [];
    for (const [name, who, path, heading, then, only] of screens) {
      if (only && only !== size) continue;
      const page = await pageFor(who, viewport);
      try {
        await page.goto(typeof path === 'function' ? path(fixtures) : path);
        const title = typeof heading === 'function' ? heading(fixtures) : heading;
        const h1 = title === true ? page.getByRole('heading', { level: 1 }).first() : page.getByRole('heading', { level: 1, name: title, exact: true });
        await h1.waitFor();
        await settle(page);
        if (then) {
          await then(page);
          await settle(page);
        }
        const violations = await seriousA11yViolations(page);
        if (violations.length) found.push(describeA11yViolations(`${name} (${viewport.width} px)`, violations));
      } catch (error) {
        found.push(`${name} (${viewport.width} px): could not check: ${error.message.split('\n')[0]}`);
      } finally {
        await page.context().close();
      }
    }
    if (found.length) throw new Error(`${found.length} screen(s) with accessibility problems:\n${found.join('\n')}`);
  });
}
