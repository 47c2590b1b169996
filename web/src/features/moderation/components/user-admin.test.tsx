import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { UserRecord } from '@/features/moderation/api/get-user-record';
import { UserAdmin } from '@/features/moderation/components/user-admin';
import { authLoadingAtom, resetAuthForTests } from '@/lib/auth/session';
import { appStore } from '@/lib/store';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const person = {
  id: 'k1',
  name: 'Tom T.',
  email: 'tom@example.com',
  created_at: '2026-10-01T00:00:00Z',
  tasks_completed: 3,
  open_reports: 0,
  actions: 1,
  suspended: false,
  suspended_until: null,
};

const record: UserRecord = {
  user: person,
  suspension_reason: null,
  tasks: [{ id: 't1', title: 'Fix the fence', status: 'completed', budget_cents: 20000, role: 'tasker', created_at: '2026-11-01T00:00:00Z' }],
  offers: [
    { id: 'o1', task_id: 't2', task_title: 'Mow the lawn', amount_cents: 9000, message: 'Cash is cheaper', message_removed: true, status: 'pending', created_at: '2026-11-02T00:00:00Z' },
  ],
  disputes: [{ id: 'd1', task_id: 't1', task_title: 'Fix the fence', opened_by: 'p1', reason: 'no_show', status: 'resolved', outcome: 'release', created_at: '2026-11-03T00:00:00Z' }],
  payments: [
    {
      id: 'pay1',
      task_id: 't1',
      task_title: 'Fix the fence',
      role: 'tasker',
      status: 'released',
      amount_cents: 20000,
      fee_cents: 2000,
      refunded_cents: 0,
      currency: 'aud',
      transfer_status: 'pending',
      transfer_on_hold: true,
      created_at: '2026-11-01T00:00:00Z',
    },
  ],
  reports: [],
  actions: [],
};

beforeEach(() => {
  resetAuthForTests();
  appStore.set(authLoadingAtom, false);
  signInForTest({ id: 'op', email: 'op@example.com', is_operator: true });
});
afterEach(() => vi.unstubAllGlobals());

describe('the users view', () => {
  it("shows a person's tasks, offers, disputes and payments, and lifts a hold that outlived the suspension", async () => {
    const api = mockFetch({
      'GET /api/admin/users': { body: { items: [person], next_cursor: null, has_more: false } },
      'GET /api/admin/users/k1': { body: record },
      'POST /api/admin/users/k1/reinstate': { status: 204 },
    });
    vi.stubGlobal('fetch', api.fn);
    const user = userEvent.setup();
    renderWithRouter(<UserAdmin />);
    await user.type(screen.getByLabelText('Name or email'), 'tom');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.click(await screen.findByRole('button', { name: /Tom T\./ }));

    const tasks = await screen.findByRole('list', { name: 'Tasks' });
    expect(within(tasks).getByRole('link', { name: 'Fix the fence' })).toHaveAttribute('href', '/task/t1');
    expect(tasks).toHaveTextContent('Assigned');
    expect(screen.getByRole('list', { name: 'Offers' })).toHaveTextContent('message removed: Cash is cheaper');
    expect(screen.getByRole('list', { name: 'Disputes' })).toHaveTextContent('resolved (release)');
    const payments = screen.getByRole('list', { name: 'Payments' });
    expect(payments).toHaveTextContent('Owed $200.00');
    expect(within(payments).getByText(/on hold until reinstated/)).toBeInTheDocument();

    // Not suspended any more, but the hold remains: Reinstate is what lifts it.
    await user.click(screen.getByRole('button', { name: 'Reinstate' }));
    await vi.waitFor(() => expect(api.calls.map((call) => call.key)).toContain('POST /api/admin/users/k1/reinstate'));
  });
});
