import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Earnings } from '@/features/earnings/api/get-earnings';
import { EarningsOverview } from '@/features/earnings/components/earnings-overview';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const line = {
  payment_id: 'p1',
  purpose: 'task' as const,
  task_id: 't1',
  task_title: 'Fix the fence',
  amount_cents: 20000,
  fee_cents: 2000,
  payout_cents: 18000,
  currency: 'aud',
  held_at: '2026-11-01T00:00:00Z',
  released_at: '2026-11-03T00:00:00Z',
  paid_out_at: null,
  on_hold: false,
};
const zero = { held_cents: 0, awaiting_release_cents: 0, released_cents: 0, paid_out_cents: 0, fees_cents: 0 };

beforeEach(() => signInForTest('k1'));
afterEach(() => vi.unstubAllGlobals());

describe('earnings', () => {
  it('tells a tasker without payouts that a transfer waits for them, and starts the setup', async () => {
    const earnings: Earnings = {
      currency: 'aud',
      payout_account: 'none',
      identity_needed: false,
      totals: { ...zero, released_cents: 18000, fees_cents: 2000 },
      items: [{ ...line, state: 'waiting_for_payout_setup' }],
      next_cursor: null,
      has_more: false,
    };
    const api = mockFetch({
      'GET /api/me/earnings': { body: earnings },
      'POST /api/me/payouts/onboarding': { body: { url: 'http://localhost/sandbox/payouts/acct_sandbox_1', ready: false } },
    });
    vi.stubGlobal('fetch', api.fn);
    const navigate = vi.fn();
    renderWithRouter(<EarningsOverview navigate={navigate} />, '/earnings');

    expect(await screen.findByText('A transfer is waiting for your payout setup')).toBeInTheDocument();
    const item = screen.getByRole('link', { name: 'Fix the fence' }).closest('li')!;
    expect(within(item).getByText('Transfer waiting for your payout setup')).toBeInTheDocument();
    expect(within(item).getByText('$180.00')).toBeInTheDocument();
    const released = screen.getByText('Released', { selector: 'dt' }).parentElement!;
    expect(released).toHaveTextContent('$180.00');

    await userEvent.click(screen.getByRole('button', { name: 'Set up payouts' }));
    expect(api.calls.map((call) => call.key)).toContain('POST /api/me/payouts/onboarding');
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('http://localhost/sandbox/payouts/acct_sandbox_1'));
  });

  it('shows a paid-out task and set-up payouts without a waiting notice', async () => {
    const earnings: Earnings = {
      currency: 'aud',
      payout_account: 'ready',
      identity_needed: false,
      totals: { ...zero, paid_out_cents: 18000, fees_cents: 2000 },
      items: [{ ...line, state: 'paid_out', paid_out_at: '2026-11-03T00:00:00Z' }],
      next_cursor: null,
      has_more: false,
    };
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/me/earnings': { body: earnings } }).fn);
    renderWithRouter(<EarningsOverview navigate={vi.fn()} />, '/earnings');
    expect(await screen.findByRole('heading', { name: 'Payouts are set up' })).toBeInTheDocument();
    expect(screen.getByText('Paid out', { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByText('Paid out', { selector: 'dt' }).parentElement).toHaveTextContent('$180.00');
    expect(screen.queryByText('A transfer is waiting for your payout setup')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update bank details' })).toBeInTheDocument();
  });

  it('says a transfer held by an operator is on hold, with the way to support', async () => {
    const earnings: Earnings = {
      currency: 'aud',
      payout_account: 'ready',
      identity_needed: false,
      totals: { ...zero, released_cents: 18000, fees_cents: 2000 },
      items: [{ ...line, state: 'transfer_pending', on_hold: true }],
      next_cursor: null,
      has_more: false,
    };
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/me/earnings': { body: earnings } }).fn);
    renderWithRouter(<EarningsOverview navigate={vi.fn()} />, '/earnings');
    const item = (await screen.findByRole('link', { name: 'Fix the fence' })).closest('li')!;
    expect(within(item).getByText('On hold: contact support')).toBeInTheDocument();
    expect(within(item).queryByText('Transfer on its way')).not.toBeInTheDocument();
    expect(within(item).getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/contact');
  });

  it('asks a tasker whose transfer waits for an identity check to verify, with the given button', async () => {
    const earnings: Earnings = {
      currency: 'aud',
      payout_account: 'ready',
      identity_needed: true,
      totals: { ...zero, released_cents: 18000, fees_cents: 2000 },
      items: [{ ...line, state: 'waiting_for_identity' }],
      next_cursor: null,
      has_more: false,
    };
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/me/earnings': { body: earnings } }).fn);
    renderWithRouter(<EarningsOverview navigate={vi.fn()} identityAction={<button type="button">Verify now</button>} />, '/earnings');
    expect(await screen.findByText('Verify your identity to get paid')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify now' })).toBeInTheDocument();
    const item = screen.getByRole('link', { name: 'Fix the fence' }).closest('li')!;
    expect(within(item).getByText('Transfer waiting for your identity check')).toBeInTheDocument();
    expect(screen.queryByText('A transfer is waiting for your payout setup')).not.toBeInTheDocument();
  });

  it('invites a tasker with nothing yet to browse tasks', async () => {
    const earnings: Earnings = { currency: 'aud', payout_account: 'pending', identity_needed: false, totals: zero, items: [], next_cursor: null, has_more: false };
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/me/earnings': { body: earnings } }).fn);
    renderWithRouter(<EarningsOverview navigate={vi.fn()} />, '/earnings');
    expect(await screen.findByText(/No earnings yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue setup' })).toBeInTheDocument();
  });

  it('shows older earnings a page at a time, under totals of every line', async () => {
    const totals = { ...zero, paid_out_cents: 36000, fees_cents: 4000 };
    const first: Earnings = {
      currency: 'aud',
      payout_account: 'ready',
      identity_needed: false,
      totals,
      items: [{ ...line, state: 'paid_out', paid_out_at: '2026-11-03T00:00:00Z' }],
      next_cursor: 'c1',
      has_more: true,
    };
    const second: Earnings = {
      ...first,
      items: [{ ...line, payment_id: 'p0', task_id: 't0', task_title: 'Mow the lawn', state: 'paid_out', paid_out_at: '2026-10-03T00:00:00Z' }],
      next_cursor: null,
      has_more: false,
    };
    const urls: string[] = [];
    const api = mockFetch({ 'GET /api/me/earnings': [{ body: first }, { body: second }] });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      urls.push(String(input));
      return api.fn(input, init);
    });
    renderWithRouter(<EarningsOverview navigate={vi.fn()} />, '/earnings');

    expect(await screen.findByRole('link', { name: 'Fix the fence' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Mow the lawn' })).not.toBeInTheDocument();
    expect(screen.getByText('Paid out', { selector: 'dt' }).parentElement).toHaveTextContent('$360.00');
    await userEvent.click(screen.getByRole('button', { name: 'Show older earnings' }));
    expect(await screen.findByRole('link', { name: 'Mow the lawn' })).toBeInTheDocument();
    expect(urls).toEqual(['/api/me/earnings', '/api/me/earnings?cursor=c1']);
    expect(screen.getByRole('link', { name: 'Fix the fence' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show older earnings' })).not.toBeInTheDocument();
  });
});
