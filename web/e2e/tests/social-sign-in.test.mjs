// Social sign-in end to end through the sandbox identity provider the dev-mode server runs
// (the same OpenID Connect client code as Google's): a new person signs up as a tasker from the
// sign-up page's button, chooses their skills and lands signed in, with the provider listed under
// Linked accounts; an existing verified member signs in from the login page's button; an
// identity the provider did not verify is refused with the callback page's message. The new
// screens are axe-clean at 390 and 1280 px.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
  createVerifiedUser,
  expectNoSeriousA11yViolations,
  launch,
  linkPath,
  newPage,
  screenshot,
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

/** On the sandbox provider's page: signs in as `email`. */
async function signInAtSandbox(page, { email, name, verified = true }) {
  await page.getByRole('heading', { level: 1, name: 'Sign in to Taskhub' }).waitFor();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Name', { exact: true }).fill(name);
  if (!verified) await page.getByLabel('The provider has verified this email').uncheck();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a new person signs up with the sandbox provider as a tasker', async () => {
  const page = await newPage(browser, VIEWPORTS.desktop);
  const email = uniqueEmail('social-tasker');
  await page.goto('/signup');
  await page.getByRole('link', { name: 'Continue with Sandbox ID' }).click();
  await signInAtSandbox(page, { email, name: 'Sandy Social' });

  await page.getByRole('heading', { level: 1, name: 'Finish creating your account' }).waitFor();
  await page.getByText(`(${email})`).waitFor();
  const choiceUrl = page.url();
  for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
    const view = await newPage(browser, viewport);
    await view.goto(choiceUrl);
    await view.getByRole('heading', { level: 1, name: 'Finish creating your account' }).waitFor();
    await view.getByRole('tab', { name: 'I want to provide services' }).click();
    await view.getByRole('button', { name: 'Add Skill' }).waitFor();
    await expectNoSeriousA11yViolations(view, `social sign-up step at ${viewport.width}px`);
    await screenshot(view, 'social-signup-step');
    await view.context().close();
  }

  await page.getByRole('tab', { name: 'I want to provide services' }).click();
  await page.getByRole('checkbox', { name: /I agree/ }).check();
  await page.getByRole('button', { name: 'Create tasker account' }).click();
  await page.getByText('Please add at least one skill').waitFor();
  await page.getByRole('button', { name: 'Plumbing' }).click();
  await page.getByRole('button', { name: 'Add Skill' }).click();
  await page.getByRole('button', { name: /^Edit Plumbing/ }).waitFor();
  await page.getByRole('button', { name: 'Create tasker account' }).click();
  await page.waitForURL((url) => url.pathname === '/tasks');
  await page.getByRole('button', { name: 'Account menu for Sandy Social' }).waitFor();

  await page.goto('/settings');
  const linked = page.getByRole('region', { name: 'Linked accounts' });
  await linked.getByText('Sandbox ID').waitFor();
  await linked.getByText('You have no password yet').waitFor();
  for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
    await page.setViewportSize(viewport);
    await linked.getByRole('button', { name: 'Unlink Sandbox ID' }).waitFor();
    await expectNoSeriousA11yViolations(page, `linked accounts at ${viewport.width}px`);
  }
  // The only way in cannot be unlinked; the server says why.
  await linked.getByRole('button', { name: 'Unlink Sandbox ID' }).click();
  await page.getByText(/Sandbox ID is the only way you sign in/).waitFor();
  await screenshot(page, 'social-linked-accounts');
  await page.context().close();
});

test('an existing verified member signs in with the sandbox provider; an unverified identity is refused', async () => {
  const member = await createVerifiedUser({ prefix: 'social-member', body: { first_name: 'Morgan', last_name: 'Member' } });
  const page = await newPage(browser, VIEWPORTS.desktop);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Continue with Sandbox ID' }).click();
  await signInAtSandbox(page, { email: member.email, name: 'Morgan Member', verified: false });
  await page.getByRole('heading', { level: 1, name: 'Signing in' }).waitFor();
  await page.getByText(`An account with ${member.email} already exists`).waitFor();
  assert.equal(new URL(page.url()).hash, '', 'the fragment is cleared from the address bar');
  for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
    await page.setViewportSize(viewport);
    await expectNoSeriousA11yViolations(page, `sign-in refused at ${viewport.width}px`);
    await screenshot(page, 'social-sign-in-refused');
  }

  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await page.getByRole('link', { name: 'Continue with Sandbox ID' }).click();
  await signInAtSandbox(page, { email: member.email, name: 'Morgan Member' });
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('button', { name: 'Account menu for Morgan Member' }).waitFor();
  await page.goto('/settings');
  const linked = page.getByRole('region', { name: 'Linked accounts' });
  await linked.getByText('You sign in with your password').waitFor();
  await linked.getByRole('button', { name: 'Unlink Sandbox ID' }).waitFor();
  await page.context().close();
});

test('an address the provider did not verify makes an account only through our mail, in the same browser', async () => {
  const email = uniqueEmail('social-unverified');
  const page = await newPage(browser, VIEWPORTS.desktop);
  await page.goto('/signup');
  await page.getByRole('link', { name: 'Continue with Sandbox ID' }).click();
  await signInAtSandbox(page, { email, name: 'Una Verified', verified: false });
  await page.getByRole('heading', { level: 1, name: 'Finish creating your account' }).waitFor();
  await page.getByRole('checkbox', { name: /I agree/ }).check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('Check your email').waitFor();
  await page.getByText(email, { exact: false }).first().waitFor();
  await expectNoSeriousA11yViolations(page, 'social sign-up waiting for its mail');

  const mail = await waitForMail(email, { subject: /Confirm your email/ });
  const path = linkPath(mail.text, '/signup/confirm');

  // Opened anywhere else (the address's owner, who never asked for it): no account.
  const elsewhere = await newPage(browser, VIEWPORTS.mobile);
  await elsewhere.goto(path);
  await elsewhere.getByText(/opened in another browser/).waitFor();
  await expectNoSeriousA11yViolations(elsewhere, 'sign-up link opened in another browser');
  await elsewhere.context().close();

  await page.goto(path);
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('button', { name: 'Account menu for Una Verified' }).waitFor();
  await page.context().close();
});
