import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ReportQueue } from '@/features/moderation/components/report-queue';
import { authLoadingAtom, resetAuthForTests } from '@/lib/auth/session';
import { appStore } from '@/lib/store';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const item = {
  id: 'r1',
  target: { type: 'offer', id: 'o1', snapshot: 'Text me on zero four one two, cash is cheaper', current: { removed: false, text: 'I can do it Saturday' } },
  author: {
    id: 'k1',
    name: 'Tom T.',
    email: 'tom@example.com',
    created_at: '2026-10-01T00:00:00Z',
    tasks_completed: 3,
    open_reports: 2,
    actions: 1,
    suspended: false,
    suspended_until: null,
  },
  reporters: 2,
  reasons: ['off_platform', 'scam'],
  status: 'open',
  created_at: '2026-11-20T10:00:00Z',
};
const page = (items: unknown[]) => ({ items, next_cursor: null, has_more: false });
const resolved = { id: 'r1', status: 'resolved', target: { type: 'offer', id: 'o1' }, reason: 'off_platform', created_at: item.created_at };

beforeEach(() => {
  resetAuthForTests();
  appStore.set(authLoadingAtom, false);
  signInForTest({ id: 'op', email: 'op@example.com', is_operator: true });
});
afterEach(() => vi.unstubAllGlobals());

const resolveCalls = (api: ReturnType<typeof mockFetch>) =>
  api.calls.filter((c) => c.key === 'POST /api/admin/reports/r1/resolve').map((c) => JSON.parse(String(c.init.body)));

async function card() {
  return within((await screen.findByRole('heading', { name: 'Offer message by Tom T.' })).closest('article')!);
}

describe('the reports queue', () => {
  it('shows the snapshot, the current state, the reasons and the author, and suspends with a note and days', async () => {
    const api = mockFetch({
      'GET /api/admin/reports': [{ body: page([item]) }, { body: page([]) }],
      'POST /api/admin/reports/r1/resolve': { body: resolved },
    });
    vi.stubGlobal('fetch', api.fn);
    const user = userEvent.setup();
    renderWithRouter(<ReportQueue />);
    const c = await card();

    expect(c.getByText(item.target.snapshot)).toBeInTheDocument();
    expect(c.getByText(/edited to “I can do it Saturday”/)).toBeInTheDocument();
    expect(c.getByText(/2 reporters · Taking payment or contact off Taskhub, Scam or fraud/)).toBeInTheDocument();
    expect(c.getByText('Tom T. (tom@example.com)')).toBeInTheDocument();
    expect(c.getByText('Open reports').nextSibling).toHaveTextContent('2');

    await user.click(c.getByRole('button', { name: 'Suspend' }));
    expect(c.getByText(/Write a note first/)).toBeInTheDocument();
    expect(resolveCalls(api)).toHaveLength(0);

    await user.type(c.getByLabelText('Note'), 'Took the job off Taskhub');
    await user.type(c.getByLabelText(/Suspension days/), '7');
    await user.click(c.getByRole('button', { name: 'Suspend' }));

    expect(await c.findByRole('status')).toHaveTextContent('Author suspended');
    expect(resolveCalls(api)).toEqual([{ action: 'suspend', note: 'Took the job off Taskhub', suspend_days: 7 }]);
    // The queue is fetched again after the decision.
    await vi.waitFor(() => expect(api.calls.filter((call) => call.key === 'GET /api/admin/reports').length).toBeGreaterThanOrEqual(2));
  });

  it('dismisses with only the action and the note, and says so when the reports were already resolved', async () => {
    const api = mockFetch({
      'GET /api/admin/reports': { body: page([item]) },
      'POST /api/admin/reports/r1/resolve': [
        { status: 409, body: { error: { code: 'conflict', message: 'These reports were already resolved' } } },
        { body: resolved },
      ],
    });
    vi.stubGlobal('fetch', api.fn);
    const user = userEvent.setup();
    renderWithRouter(<ReportQueue />);
    const c = await card();

    await user.type(c.getByLabelText('Note'), 'Nothing wrong here');
    await user.click(c.getByRole('button', { name: 'Dismiss' }));
    expect(await c.findByRole('alert')).toHaveTextContent('These reports were already resolved');
    expect(resolveCalls(api)).toEqual([{ action: 'dismiss', note: 'Nothing wrong here' }]);
  });

  it('refuses a suspension length out of range before asking the server', async () => {
    const api = mockFetch({ 'GET /api/admin/reports': { body: page([item]) } });
    vi.stubGlobal('fetch', api.fn);
    const user = userEvent.setup();
    renderWithRouter(<ReportQueue />);
    const c = await card();

    await user.type(c.getByLabelText('Note'), 'Repeat offender');
    await user.type(c.getByLabelText(/Suspension days/), '0');
    await user.click(c.getByRole('button', { name: 'Suspend' }));
    expect(c.getByText('Enter 1 to 3650 days, or leave it empty')).toBeInTheDocument();
    expect(resolveCalls(api)).toHaveLength(0);
  });

  it('offers no Remove for a reported profile', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/admin/reports': { body: page([{ ...item, target: { ...item.target, type: 'user' } }]) } }).fn);
    renderWithRouter(<ReportQueue />);
    const c = within((await screen.findByRole('heading', { name: 'Profile by Tom T.' })).closest('article')!);
    expect(c.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(c.getByRole('button', { name: 'Warn' })).toBeInTheDocument();
  });
});
