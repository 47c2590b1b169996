import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CancellationPanel } from '@/features/cancellation/components/cancellation-panel';
import { formatRemaining } from '@/lib/use-countdown';
import type { TaskDetail } from '@/lib/marketplace';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const task = {
  id: 't1',
  title: 'Assemble a wardrobe',
  description: 'PAX',
  budget_cents: 12000,
  currency: 'aud',
  location: 'Newtown NSW',
  due_date: null,
  category_id: 1,
  category: 'Furniture Assembly',
  status: 'assigned',
  created_at: '2026-11-01T00:00:00Z',
  offer_count: 1,
  view_count: 3,
  questions: [],
  poster: { id: 'p1', name: 'Paula P.', avatar_url: null, rating: null },
  assigned_tasker: { id: 'k1', name: 'Tom T.', avatar_url: null, rating: null },
} satisfies TaskDetail;

const HOUR = 3600_000;
const requestBy = (id: string, ageMs: number) => ({
  id: 'c1',
  task_id: 't1',
  requested_by: id,
  reason: 'I have to move interstate next week.',
  status: 'pending',
  created_at: new Date(Date.now() - ageMs).toISOString(),
  answered_at: null,
});

beforeEach(() => signInForTest('p1'));
afterEach(() => vi.unstubAllGlobals());

describe('cancellation after assignment', () => {
  it('formats the time left before a request lapses', () => {
    expect(formatRemaining(47 * HOUR + 12 * 60_000 + 30_000)).toBe('47 h 12 min');
    expect(formatRemaining(2 * HOUR)).toBe('2 h');
    expect(formatRemaining(12 * 60_000 + 5_000)).toBe('12 min');
    expect(formatRemaining(20_000)).toBe('less than a minute');
    expect(formatRemaining(0)).toBeNull();
  });

  it('lets a party ask to cancel with a reason, then shows the request and the countdown', async () => {
    const api = mockFetch({
      'GET /api/tasks/t1/cancellation': { body: null },
      'POST /api/tasks/t1/cancellation': (init) => ({ status: 201, body: { ...requestBy('p1', 0), ...JSON.parse(String(init.body)) } }),
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<CancellationPanel task={task} userId="p1" amountCents={8500} />);
    expect(await screen.findByText(/Your payment of \$85\.00 is then refunded in full\./)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Ask to cancel' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send request', hidden: true }));
    expect(within(dialog).getByText('Please give a reason for cancelling')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Reason for cancelling'), 'Plans changed, sorry.');
    await userEvent.selectOptions(within(dialog).getByLabelText('Why are you cancelling?'), 'The task is no longer needed');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send request', hidden: true }));
    expect(await screen.findByRole('heading', { name: 'You asked to cancel' })).toBeInTheDocument();
    const post = api.calls.find((c) => c.key === 'POST /api/tasks/t1/cancellation')!;
    expect(JSON.parse(String(post.init.body))).toEqual({ reason: 'Plans changed, sorry.', reason_code: 'no_longer_needed' });
    expect(screen.getByTestId('cancellation-countdown')).toHaveTextContent(/^Cancels automatically in 4[78] h( \d+ min)? unless declined\.$/);
    expect(screen.queryByRole('button', { name: 'Accept cancellation' })).not.toBeInTheDocument();
  });

  it('lets the other party accept or decline, with a live countdown and the refund spelled out', async () => {
    const api = mockFetch({
      'GET /api/tasks/t1/cancellation': { body: requestBy('k1', 48 * HOUR - (47 * HOUR + 12 * 60_000 + 30_000)) },
      'POST /api/tasks/t1/cancellation/accept': { body: { id: 't1', status: 'cancelled' } },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<CancellationPanel task={task} userId="p1" amountCents={8500} />);
    expect(await screen.findByRole('heading', { name: 'Tom T. asked to cancel' })).toBeInTheDocument();
    expect(screen.getByText('I have to move interstate next week.')).toBeInTheDocument();
    expect(screen.getByTestId('cancellation-countdown')).toHaveTextContent('Cancels automatically in 47 h 12 min unless declined.');
    expect(screen.getByText(/If you accept, the task is cancelled\. Your payment of \$85\.00 is then refunded in full\. If you decline, the task carries on\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Decline' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Accept cancellation' }));
    expect(await screen.findByText('Task cancelled')).toBeInTheDocument();
    expect(api.calls.map((c) => c.key)).toContain('POST /api/tasks/t1/cancellation/accept');
  });

  it('pauses the countdown and hides the request button while a dispute is open', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/tasks/t1/cancellation': { body: requestBy('k1', HOUR) } }).fn);
    const { unmount } = renderWithRouter(<CancellationPanel task={task} userId="p1" disputeOpen />);
    expect(await screen.findByTestId('cancellation-countdown')).toHaveTextContent('The 48-hour countdown is paused while the dispute is open.');
    unmount();
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/tasks/t1/cancellation': { body: null } }).fn);
    renderWithRouter(<CancellationPanel task={task} userId="k1" disputeOpen />);
    expect(await screen.findByText(/Cancelling isn't possible while a dispute is open/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ask to cancel' })).not.toBeInTheDocument();
  });
});
