import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { TaskDetailRoute } from '@/app/routes/marketplace/task-detail';
import { authLoadingAtom, resetAuthForTests } from '@/lib/auth/session';
import { appStore } from '@/lib/store';
import { mockFetch, renderRoutes } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

vi.mock('@/lib/realtime/use-realtime', () => ({
  useTopic: () => {},
  useRealtimeEvents: () => {},
  useRealtimeConnection: () => {},
}));
vi.mock('@/lib/realtime/use-presence', () => ({
  // Four on the page: the poster and three others.
  usePresence: () => ({ viewers: 4, taskers: 2 }),
  // The tasker k1 has the app open; the poster p1 left five minutes ago.
  useOnline: (userId: string | null) =>
    userId === 'k1' ? { online: true, last_seen: null } : userId === 'p1' ? { online: false, last_seen: new Date(Date.now() - 5 * 60_000).toISOString() } : null,
  useTypingFrames: () => {},
  sendTyping: () => {},
}));

const task = {
  id: 't1',
  title: 'Assemble a wardrobe',
  description: 'PAX wardrobe, two doors.',
  budget_cents: 12000,
  currency: 'aud',
  location: 'Newtown NSW',
  due_date: null,
  category_id: 1,
  category: 'Furniture Assembly',
  status: 'completion_requested',
  created_at: '2026-11-01T00:00:00Z',
  offer_count: 1,
  view_count: 3,
  questions: [],
  poster: { id: 'p1', name: 'Paula P.', avatar_url: null, rating: null },
  assigned_tasker: { id: 'k1', name: 'Tom T.', avatar_url: null, rating: null },
};
const payment = {
  id: 'pay1',
  task_id: 't1',
  offer_id: 'o1',
  status: 'held',
  amount_cents: 8500,
  fee_cents: 850,
  payout_cents: 7650,
  refunded_cents: 0,
  currency: 'aud',
  held_at: '2026-11-02T00:00:00Z',
  released_at: null,
  refunded_at: null,
};
const dispute = {
  id: 'd1',
  task_id: 't1',
  opened_by: 'p1',
  reason: 'poor_quality',
  message: 'The doors do not close.',
  status: 'open',
  outcome: null,
  refund_cents: null,
  resolution_note: null,
  created_at: '2026-11-20T10:00:00Z',
  resolved_at: null,
};

function serve(extra: Record<string, { status?: number; body?: unknown }>) {
  const api = mockFetch({
    'GET /api/tasks/t1': { body: task },
    'GET /api/tasks/t1/offers': { body: { items: [], next_cursor: null, has_more: false } },
    'GET /api/tasks/t1/messages': { body: [] },
    'GET /api/tasks/t1/payment': { body: payment },
    'GET /api/tasks/t1/cancellation': { body: null },
    'GET /api/tasks/t1/dispute': { body: null },
    ...extra,
  });
  vi.stubGlobal('fetch', api.fn);
  return api;
}

const render = () => renderRoutes([{ path: '/task/:taskId', element: <TaskDetailRoute /> }], ['/task/t1']);

beforeEach(() => {
  resetAuthForTests();
  appStore.set(authLoadingAtom, false);
});
afterEach(() => vi.unstubAllGlobals());

// The whole task page renders here; give it time on a busy machine.
vi.setConfig({ testTimeout: 15_000 });

describe('task page after assignment', () => {
  it('offers the poster a dispute and a cancellation request, with the amount at stake', async () => {
    signInForTest('p1');
    serve({});
    render();
    expect(await screen.findByRole('button', { name: 'Open a dispute' }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Ask to cancel' })).toBeInTheDocument();
    expect(screen.getByText(/Your payment of \$85\.00 is then refunded in full\./)).toBeInTheDocument();
    // The parties' panels load apart from the page, each when first shown.
    expect(await screen.findByRole('button', { name: 'Release payment' })).toBeEnabled();
    expect(screen.getByText('3 taskers viewing')).toBeInTheDocument();
    expect(await screen.findByTestId('online-note')).toHaveTextContent(/^Online$/);
  });

  it('shows the tasker an open dispute and pauses payment requests and cancellation', async () => {
    signInForTest('k1');
    serve({ 'GET /api/tasks/t1/dispute': { body: dispute } });
    render();
    expect(await screen.findByRole('heading', { name: 'Dispute open' }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText('Payment requests are paused while the dispute is open. An operator will decide.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request payment' })).toBeDisabled();
    expect(await screen.findByText(/Cancelling isn't possible while a dispute is open/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open a dispute' })).not.toBeInTheDocument();
    expect(screen.getByText('4 people viewing')).toBeInTheDocument();
    expect(await screen.findByTestId('online-note')).toHaveTextContent('Last seen 5 min ago');
  });

  it('tells the poster a pending task is waiting for a processing payment', async () => {
    signInForTest('p1');
    serve({
      'GET /api/tasks/t1': { body: { ...task, status: 'pending_payment', assigned_tasker: null } },
      'GET /api/tasks/t1/payment': { body: { ...payment, status: 'processing', held_at: null } },
      'GET /api/tasks/t1/offers': {
        body: {
          items: [{ id: 'o1', task_id: 't1', tasker: task.assigned_tasker, amount_cents: 8500, message: 'Hi', status: 'pending', created_at: '2026-11-02T00:00:00Z' }],
          next_cursor: null,
          has_more: false,
        },
      },
    });
    render();
    expect(await screen.findByRole('heading', { name: 'Payment processing' }, { timeout: 5000 })).toBeInTheDocument();
    await vi.waitFor(() => expect(document.querySelector('[data-offer-id="o1"]')).not.toBeNull());
    expect(screen.queryByRole('button', { name: 'Accept & Pay' })).not.toBeInTheDocument();
  });
});

/** jsdom never opens a <dialog>, so it has no accessible name there: find it by its title. */
const dialogTitled = (title: string) => screen.getByRole('heading', { name: title, hidden: true }).closest('dialog') as HTMLElement;

describe('confirmations on the task page', () => {
  it('asks before releasing the payment, which cannot be undone', async () => {
    signInForTest('p1');
    const api = serve({ 'POST /api/tasks/t1/release': { body: { ...task, status: 'completed' } } });
    render();
    const { default: userEvent } = await import('@testing-library/user-event');
    await userEvent.click(await screen.findByRole('button', { name: 'Release payment' }, { timeout: 5000 }));
    const dialog = dialogTitled('Release payment?');
    expect(dialog).toHaveTextContent(/cannot be undone/);
    expect(api.calls.some((c) => c.key === 'POST /api/tasks/t1/release')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Release payment', hidden: true }));
    await vi.waitFor(() => expect(api.calls.some((c) => c.key === 'POST /api/tasks/t1/release')).toBe(true));
  });

  it("cancels an open task through the app's dialog, not the browser's", async () => {
    signInForTest('p1');
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    const api = serve({
      'GET /api/tasks/t1': { body: { ...task, status: 'open', assigned_tasker: null } },
      'POST /api/tasks/t1/cancel': { body: { ...task, status: 'cancelled' } },
    });
    render();
    const { default: userEvent } = await import('@testing-library/user-event');
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel task' }, { timeout: 5000 }));
    const dialog = dialogTitled('Cancel this task?');
    expect(api.calls.some((c) => c.key === 'POST /api/tasks/t1/cancel')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel task', hidden: true }));
    await vi.waitFor(() => expect(api.calls.some((c) => c.key === 'POST /api/tasks/t1/cancel')).toBe(true));
    expect(confirm).not.toHaveBeenCalled();
  });
});

describe('a task a moderator removed', () => {
  it('says so to everyone but operators, from the 404 or from a copy already loaded', async () => {
    signInForTest('k9');
    serve({ 'GET /api/tasks/t1': { status: 404, body: { error: { code: 'not_found', message: 'This task was removed' } } } });
    render();
    expect(await screen.findByRole('heading', { name: 'Task removed' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('This task was removed')).toBeInTheDocument();
    expect(screen.queryByText('Assemble a wardrobe')).not.toBeInTheDocument();
  });

  it('shows an operator the task, marked removed', async () => {
    signInForTest({ id: 'op', email: 'op@example.com', is_operator: true });
    serve({ 'GET /api/tasks/t1': { body: { ...task, status: 'removed', assigned_tasker: null } } });
    render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Assemble a wardrobe' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Removed by a moderator: only operators see this task.')).toBeInTheDocument();
  });

  it('hides a removed copy from anyone else (the live update after removal)', async () => {
    signInForTest('k9');
    serve({ 'GET /api/tasks/t1': { body: { ...task, status: 'removed', assigned_tasker: null } } });
    render();
    expect(await screen.findByRole('heading', { name: 'Task removed' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText('Assemble a wardrobe')).not.toBeInTheDocument();
  });
});
