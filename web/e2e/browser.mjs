// Shared helpers for the end-to-end tests: Debian's Chromium through playwright-core.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

import { AxeBuilder } from '@axe-core/playwright';
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
export const SCREENSHOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../test-results/screenshots');
export const VIEWPORTS = { mobile: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export async function newPage(browser, viewport = VIEWPORTS.desktop) {
  const context = await browser.newContext({ viewport, baseURL: BASE_URL });
  // Generous: CI machines are shared and busy (Rust builds run alongside).
  context.setDefaultTimeout(Number(process.env.E2E_TIMEOUT_MS ?? 20_000));
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[pageerror] ${error.message}`));
  return page;
}

/** Saves a full-page screenshot as test-results/screenshots/<name>-<width>.png. */
export async function screenshot(page, name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true, timeout: 30_000 });
}

/** Screenshots a path at both 390 px and 1280 px in fresh contexts (optionally signed in via storage). */
export async function screenshotBoth(browser, path, name, { heading, storage } = {}) {
  for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
    const page = await newPage(browser, viewport);
    if (storage) {
      await page.goto('/favicon.svg');
      await page.evaluate((entries) => entries.forEach(([k, v]) => localStorage.setItem(k, v)), storage);
    }
    await page.goto(path);
    if (heading) await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    // Settled enough for a picture; a slow background request must not fail the run.
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
    await screenshot(page, name);
    await page.context().close();
  }
}

export function uniqueEmail(prefix) {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/** The newest mail to an address from the dev mailbox, polled until it arrives. */
export async function waitForMail(to, { subject, timeout = 10_000 } = {}) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    const response = await fetch(`${BASE_URL}/dev/mailbox.json`);
    if (response.ok) {
      const mails = await response.json();
      const mail = mails.find((m) => String(m.to).toLowerCase().includes(to.toLowerCase()) && (!subject || subject.test(m.subject)));
      if (mail) return mail;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} within ${timeout} ms`);
}

/** The path and query of the first link in a mail matching a path, on our own origin. */
export function linkPath(text, path) {
  const match = new RegExp(`https?://[^\\s"'<>]+${path}\\?token=[^\\s"'<>]+`).exec(text);
  if (!match) throw new Error(`no ${path} link in mail:\n${text}`);
  const url = new URL(match[0].replace(/&amp;/g, '&'));
  return `${url.pathname}${url.search}`;
}

export async function api(path, { method = 'GET', body, token } = {}) {
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text}`);
  return data;
}

/** Signs up and verifies an account through the API; returns its credentials. */
export async function createVerifiedUser(overrides = {}) {
  const email = uniqueEmail(overrides.prefix ?? 'user');
  const password = 'correct-horse-7';
  await api('/api/auth/signup', {
    method: 'POST',
    body: { email, password, first_name: 'Grace', last_name: 'Hopper', account_type: 'customer', ...overrides.body },
  });
  const mail = await waitForMail(email);
  const token = new URL(linkPath(mail.text, '/verify-email'), BASE_URL).searchParams.get('token');
  await api('/api/auth/verify', { method: 'POST', body: { token } });
  return { email, password };
}

/** The first address in `ADMIN_EMAILS`: the operator the browser tests sign in as. */
export const OPERATOR_EMAIL = (process.env.ADMIN_EMAILS ?? 'operator@example.com').split(',')[0].trim();

/** The operator account: signed up and verified once per server (a second run just signs in). */
export async function operatorAccount() {
  const account = { email: OPERATOR_EMAIL, password: 'correct-horse-7' };
  try {
    await api('/api/auth/signup', {
      method: 'POST',
      body: { ...account, first_name: 'Olive', last_name: 'Operator', account_type: 'customer' },
    });
    const mail = await waitForMail(account.email);
    const token = new URL(linkPath(mail.text, '/verify-email'), BASE_URL).searchParams.get('token');
    await api('/api/auth/verify', { method: 'POST', body: { token } });
  } catch (error) {
    if (!/→ (409|422)/.test(String(error.message))) throw error;
  }
  return account;
}

export async function signInThroughUi(page, { email, password }) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** A valid PNG (solid colour) built in memory, for the avatar upload. */
export function pngImage(width = 64, height = 64, [r, g, b] = [13, 148, 136]) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(typed));
    return Buffer.concat([length, typed, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * (width * 3 + 1) + 1 + x * 3;
      raw[i] = r;
      raw[i + 1] = g;
      raw[i + 2] = b;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A new page in `browser`, signed in through the login form and back on the home page. */
export async function signedInPage(browser, account, viewport = VIEWPORTS.desktop) {
  const page = await newPage(browser, viewport);
  await page.goto('/login');
  await signInThroughUi(page, account);
  await page.waitForURL((url) => url.pathname === '/');
  return page;
}

/** Waits until the page's live socket is subscribed to `topic` (the app lists its topics on <html>). */
export async function waitForTopic(page, topic) {
  await page.waitForFunction((t) => (document.documentElement.dataset.realtimeTopics ?? '').split(' ').includes(t), topic, { timeout: 15_000 });
}

/** Signs in through the API: the session body. */
export async function login(account) {
  return api('/api/auth/login', { method: 'POST', body: account });
}

/** A date `days` from today as the task form sends it (YYYY-MM-DD). */
export const inDays = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);


/** The axe-core findings on the page as it is now (all rules axe runs by default: WCAG 2.x A/AA and best practices). */
export async function seriousA11yViolations(page) {
  // A list item still fading in (framer-motion animates opacity through the Web Animations API)
  // blends its colours with the page behind: axe would measure the contrast of that moment.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** One readable block per violation: impact, rule, what to fix, and where (at most 5 elements). */
export function describeA11yViolations(label, violations) {
  return violations
    .map((violation) => {
      const nodes = violation.nodes
        .slice(0, 5)
        .map((node) => `    ${node.target.join(' ')}\n      ${node.failureSummary?.split('\n').slice(1).join('; ') ?? ''}`)
        .join('\n');
      const more = violation.nodes.length > 5 ? `\n    … and ${violation.nodes.length - 5} more` : '';
      return `${label}: [${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})\n${nodes}${more}`;
    })
    .join('\n');
}

/** Fails with a readable list when axe-core finds any serious or critical violation on the page. */
export async function expectNoSeriousA11yViolations(page, label) {
  const violations = await seriousA11yViolations(page);
  if (violations.length) throw new Error(`accessibility violations\n${describeA11yViolations(label, violations)}`);
}
