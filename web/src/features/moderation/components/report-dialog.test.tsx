import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ReportButton } from '@/features/moderation/components/report-button';
import { authLoadingAtom, resetAuthForTests } from '@/lib/auth/session';
import { appStore } from '@/lib/store';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

beforeEach(() => {
  resetAuthForTests();
  appStore.set(authLoadingAtom, false);
});
afterEach(() => vi.unstubAllGlobals());

// jsdom has no modal <dialog>, so its content counts as hidden.
const inDialog = () => within(screen.getByRole('dialog', { hidden: true }));

const created = { id: 'r1', status: 'open', target: { type: 'offer', id: 'o1' }, reason: 'off_platform', created_at: '2026-11-25T10:00:00Z' };

async function openDialog() {
  const user = userEvent.setup();
  renderWithRouter(<ReportButton target={{ type: 'offer', id: 'o1' }} />);
  await user.click(screen.getByRole('button', { name: 'Report this offer' }));
  return user;
}

describe('the Report dialog', () => {
  it('offers every reason and posts the chosen one with the details, then confirms', async () => {
    signInForTest('p1');
    const api = mockFetch({ 'POST /api/reports': { status: 201, body: created } });
    vi.stubGlobal('fetch', api.fn);
    const user = await openDialog();

    const reasons = inDialog().getAllByRole('radio', { hidden: true }).map((radio) => radio.closest('label')?.textContent);
    expect(reasons).toEqual([
      'Spam',
      'Scam or fraud',
      'Offensive or abusive',
      'Taking payment or contact off Taskhub',
      'Unsafe or illegal',
      'Something else',
    ]);
    await user.click(inDialog().getByRole('radio', { name: 'Taking payment or contact off Taskhub', hidden: true }));
    await user.type(inDialog().getByLabelText(/Details/), '  Asked me to pay cash  ');
    await user.click(inDialog().getByRole('button', { name: 'Send report', hidden: true }));

    expect(await inDialog().findByRole('status', { hidden: true })).toHaveTextContent(/A Taskhub moderator will review this offer/);
    const posts = api.calls.filter((c) => c.key === 'POST /api/reports');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(String(posts[0].init.body))).toEqual({
      target: { type: 'offer', id: 'o1' },
      reason: 'off_platform',
      details: 'Asked me to pay cash',
    });
  });

  it('asks for a reason before sending anything, and sends no details when none were written', async () => {
    signInForTest('p1');
    const api = mockFetch({ 'POST /api/reports': { status: 201, body: created } });
    vi.stubGlobal('fetch', api.fn);
    const user = await openDialog();

    await user.click(inDialog().getByRole('button', { name: 'Send report', hidden: true }));
    expect(inDialog().getByText('Please choose a reason')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.key === 'POST /api/reports')).toHaveLength(0);

    await user.click(inDialog().getByRole('radio', { name: 'Spam', hidden: true }));
    await user.click(inDialog().getByRole('button', { name: 'Send report', hidden: true }));
    await inDialog().findByRole('status', { hidden: true });
    expect(JSON.parse(String(api.calls.find((c) => c.key === 'POST /api/reports')!.init.body))).toEqual({
      target: { type: 'offer', id: 'o1' },
      reason: 'spam',
      details: null,
    });
  });

  it.each([
    [429, /sent a lot of reports in the last hour/],
    [404, /no longer available to report/],
  ])('shows what a %i means and keeps the form', async (status, text) => {
    signInForTest('p1');
    vi.stubGlobal('fetch', mockFetch({ 'POST /api/reports': { status, body: { error: { code: 'x', message: 'raw' } } } }).fn);
    const user = await openDialog();

    await user.click(inDialog().getByRole('radio', { name: 'Scam or fraud', hidden: true }));
    await user.click(inDialog().getByRole('button', { name: 'Send report', hidden: true }));

    expect(await inDialog().findByRole('alert', { hidden: true })).toHaveTextContent(text);
    expect(inDialog().getByRole('button', { name: 'Send report', hidden: true })).toBeInTheDocument();
    expect(inDialog().queryByRole('status', { hidden: true })).not.toBeInTheDocument();
  });

  it('leads a signed-out visitor to sign in instead', () => {
    renderWithRouter(<ReportButton target={{ type: 'user', id: 'u1' }} />);
    expect(screen.getByRole('link', { name: 'Report this profile' })).toHaveAttribute('href', '/login');
  });
});
