import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { AdminConsoleRoute } from '@/app/routes/admin/console';
import { dollarsToCents } from '@/features/disputes/api/resolve-dispute';
import { authLoadingAtom, resetAuthForTests } from '@/lib/auth/session';
import { appStore } from '@/lib/store';
import { mockFetch, renderRoutes } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const item = {
  id: 'd1',
  task_id: 't1',
  opened_by: 'p1',
  reason: 'not_completed',
  message: 'Only one of the two wardrobes was built.',
  status: 'open',
  outcome: null,
  refund_cents: null,
  resolution_note: null,
  created_at: '2026-11-20T10:00:00Z',
  resolved_at: null,
  task: { id: 't1', title: 'Assemble two wardrobes', status: 'completion_requested' },
  poster: { id: 'p1', name: 'Paula P.' },
  tasker: { id: 'k1', name: 'Tom T.' },
  payment: { amount_cents: 8500, fee_cents: 850, currency: 'aud', status: 'held' },
};

function signIn(isOperator: boolean) {
  signInForTest({ id: 'o1', email: 'operator@example.com', is_operator: isOperator });
}

beforeEach(() => {
  resetAuthForTests();
  appStore.set(authLoadingAtom, false);
});
afterEach(() => vi.unstubAllGlobals());

describe('the console\'s dispute queue (/admin/disputes)', () => {
  it('tells a non-operator the page is not available, without asking the API', () => {
    signIn(false);
    const api = mockFetch({});
    vi.stubGlobal('fetch', api.fn);
    renderRoutes([{ path: '/admin/:section', element: <AdminConsoleRoute /> }], ['/admin/disputes']);
    expect(screen.getByRole('heading', { name: "This page isn't available" })).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('lists open disputes and resolves one with a partial refund in cents', async () => {
    signIn(true);
    const api = mockFetch({
      'GET /api/admin/disputes': { body: { items: [item] } },
      'POST /api/admin/disputes/d1/resolve': (init) => ({ body: { ...item, status: 'resolved', ...JSON.parse(String(init.body)) } }),
    });
    vi.stubGlobal('fetch', api.fn);
    renderRoutes([{ path: '/admin/:section', element: <AdminConsoleRoute /> }], ['/admin/disputes']);
    const card = (await screen.findByRole('heading', { name: 'Assemble two wardrobes' })).closest('article')!;
    expect(api.calls[0].key).toBe('GET /api/admin/disputes');
    const c = within(card as HTMLElement);
    expect(c.getByText('Paula P.')).toBeInTheDocument();
    expect(c.getByText('Tom T.')).toBeInTheDocument();
    expect(c.getByText("The task wasn't completed")).toBeInTheDocument();
    expect(c.getByText('Only one of the two wardrobes was built.')).toBeInTheDocument();
    expect(c.getByText('$85.00 (fee $8.50)')).toBeInTheDocument();

    await userEvent.click(c.getByRole('button', { name: 'Resolve dispute' }));
    expect(c.getByText('Please choose an outcome')).toBeInTheDocument();
    expect(c.getByText('Please explain the decision')).toBeInTheDocument();

    await userEvent.click(c.getByRole('radio', { name: /Refund part of it to Paula P\./ }));
    await userEvent.type(c.getByLabelText('Refund amount (AUD)'), '85');
    await userEvent.type(c.getByLabelText('Note to both parties'), 'Half the job was done.');
    await userEvent.click(c.getByRole('button', { name: 'Resolve dispute' }));
    expect(c.getByText('Please enter a refund between $0.01 and $84.99')).toBeInTheDocument();

    await userEvent.clear(c.getByLabelText('Refund amount (AUD)'));
    await userEvent.type(c.getByLabelText('Refund amount (AUD)'), '42.5');
    await userEvent.click(c.getByRole('button', { name: 'Resolve dispute' }));
    expect(await screen.findByText('Dispute resolved')).toBeInTheDocument();
    const post = api.calls.find((call) => call.key === 'POST /api/admin/disputes/d1/resolve')!;
    expect(JSON.parse(String(post.init.body))).toEqual({ outcome: 'partial_refund', refund_cents: 4250, note: 'Half the job was done.' });
  });

  it('shows resolved disputes with their outcome on the Resolved tab', async () => {
    signIn(true);
    const resolved = { ...item, status: 'resolved', outcome: 'refund', refund_cents: 8500, resolution_note: 'Nothing was built.', resolved_at: '2026-11-21T10:00:00Z' };
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      const items = url.searchParams.get('status') === 'resolved' ? [resolved] : [];
      return new Response(JSON.stringify({ items }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    renderRoutes([{ path: '/admin/:section', element: <AdminConsoleRoute /> }], ['/admin/disputes']);
    expect(await screen.findByText('No open disputes. Nice and quiet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Resolved' }));
    expect(await screen.findByText('Fully refunded $85.00')).toBeInTheDocument();
    expect(screen.getByText('Note: Nothing was built.')).toBeInTheDocument();
  });

  it('turns typed dollars into cents', () => {
    expect(dollarsToCents('42.5')).toBe(4250);
    expect(dollarsToCents('$12')).toBe(1200);
    expect(dollarsToCents('0.07')).toBe(7);
    expect(dollarsToCents('1.234')).toBeNull();
    expect(dollarsToCents('abc')).toBeNull();
  });
});
