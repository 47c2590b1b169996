import { after, before, test } from 'node:test';

import { launch, newPage, SCREENSHOT_DIR, screenshotBoth, VIEWPORTS } from '../browser.mjs';

const pages = [
  ['/', 'Get anything done by trusted local taskers'],
  ['/about', 'About Us'],
  ['/how-it-works', 'How It Works'],
  ['/categories', 'Browse by Category'],
  ['/help', 'Help Center'],
  ['/trust', 'Trust & Safety'],
  ['/safety', 'Safety Tips'],
  ['/covid', 'COVID-19 Information'],
  ['/faq', 'Frequently Asked Questions'],
  ['/contact', 'Contact Us'],
  ['/terms', 'Terms of Service'],
  ['/privacy', 'Privacy Policy'],
  ['/cookies', 'Cookie Policy'],
  ['/guidelines', 'Community Guidelines'],
  ['/sitemap', 'Sitemap'],
  ['/become-tasker', "Earn money doing what you're good at"],
  ['/login', 'Welcome back'],
  ['/signup', 'Create your Taskhub account'],
  ['/forgot-password', 'Forgot your password?'],
  ['/tasks', 'Available Tasks'],
];

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test('every static route renders its heading', async () => {
  const page = await newPage(browser, VIEWPORTS.desktop);
  for (const [path, heading] of pages) {
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
  }
  await page.context().close();
});

test('no page scrolls sideways on a 360 px phone', async () => {
  const page = await newPage(browser, { width: 360, height: 740 });
  const overflowing = [];
  for (const [path, heading] of pages) {
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 360) overflowing.push(`${path} (${width}px)`);
  }
  await page.context().close();
  if (overflowing.length) throw new Error(`horizontal overflow at 360 px: ${overflowing.join(', ')}`);
});

test('the categories page lists 16 categories with Browse Tasks links', async () => {
  const page = await newPage(browser, VIEWPORTS.desktop);
  await page.goto('/categories');
  await page.getByRole('link', { name: 'Browse Education tasks' }).waitFor();
  const links = await page.getByRole('link', { name: /^Browse .+ tasks$/ }).count();
  if (links !== 16) throw new Error(`expected 16 category links, found ${links}`);
  const href = await page.getByRole('link', { name: 'Browse Home Cleaning tasks' }).getAttribute('href');
  if (href !== '/tasks?category=1') throw new Error(`unexpected href ${href}`);
  await page.context().close();
});

test('an unknown path shows the not-found page with a link home', async () => {
  const page = await newPage(browser, VIEWPORTS.mobile);
  await page.goto('/no/such/page');
  await page.getByRole('heading', { level: 1, name: 'Oops! Page not found' }).waitFor();
  await page.getByRole('link', { name: 'Go back home' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.context().close();
});

test('a reset link without a token shows the invalid-link toast and goes to forgot-password', async () => {
  const page = await newPage(browser, VIEWPORTS.desktop);
  await page.goto('/reset-password');
  await page.getByText('Invalid or expired link').waitFor();
  await page.getByText('Please try requesting a new password reset link.').waitFor();
  await page.waitForURL('**/forgot-password');
  await page.context().close();
});

test('the contact form sends a message and shows the spec toast', async () => {
  const page = await newPage(browser, VIEWPORTS.desktop);
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Grace');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByLabel('Subject').fill('Question about payouts');
  await page.getByLabel('Message').fill('How long do payouts take to reach my bank?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await page.getByText('Message sent').waitFor();
  await page.getByText("We'll get back to you as soon as possible.").waitFor();
  if ((await page.getByLabel('Name').inputValue()) !== '') throw new Error('fields were not cleared');
  await page.context().close();
});

test('the mobile menu opens, locks scrolling and closes on navigation', async () => {
  const page = await newPage(browser, VIEWPORTS.mobile);
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await menu.waitFor();
  if (!(await page.evaluate(() => document.body.classList.contains('scroll-locked')))) throw new Error('scroll not locked');
  await menu.getByRole('link', { name: 'Sign Up' }).waitFor();
  // Screenshot once the menu's opening animation has settled (no fixed wait).
  await menu.evaluate(
    (element) =>
      new Promise((resolve) => {
        let last = '';
        const frame = () => {
          const box = element.getBoundingClientRect();
          const now = [box.x, box.y, box.width, box.height, getComputedStyle(element).opacity].join();
          const running = element.getAnimations({ subtree: true }).some((a) => a.playState === 'running');
          if (now === last && !running) resolve();
          else requestAnimationFrame(frame);
          last = now;
        };
        requestAnimationFrame(frame);
      }),
  );
  await page.screenshot({ path: `${SCREENSHOT_DIR}/mobile-menu-390.png` });
  await menu.getByRole('link', { name: 'How It Works' }).click();
  await page.getByRole('heading', { level: 1, name: 'How It Works' }).waitFor();
  await menu.waitFor({ state: 'detached' });
  await page.context().close();
});

test('screenshots of the key public screens at 390 px and 1280 px', async () => {
  for (const [path, name, heading] of [
    ['/', 'home', 'Get anything done by trusted local taskers'],
    ['/categories', 'categories', 'Browse by Category'],
    ['/how-it-works', 'how-it-works', 'How It Works'],
    ['/login', 'login', 'Welcome back'],
    ['/signup', 'signup', 'Create your Taskhub account'],
    ['/become-tasker', 'become-tasker', "Earn money doing what you're good at"],
    ['/faq', 'faq', 'Frequently Asked Questions'],
    ['/contact', 'contact', 'Contact Us'],
    ['/nowhere', 'not-found', 'Oops! Page not found'],
  ]) {
    await screenshotBoth(browser, path, name, { heading });
  }
});
