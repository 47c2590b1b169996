import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { DisputeSection } from '@/features/disputes/components/dispute-section';
import { describeOutcome } from '@/features/disputes/components/describe-outcome';
import { authLoadingAtom, resetAuthForTests } from '@/lib/auth/session';
import type { TaskDetail } from '@/lib/marketplace';
import { appStore } from '@/lib/store';
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
  status: 'completion_requested',
  created_at: '2026-11-01T00:00:00Z',
  offer_count: 1,
  view_count: 3,
  questions: [],
  poster: { id: 'p1', name: 'Paula P.', avatar_url: null, rating: null },
  assigned_tasker: { id: 'k1', name: 'Tom T.', avatar_url: null, rating: null },
} satisfies TaskDetail;

const openDispute = {
  id: 'd1',
  task_id: 't1',
  opened_by: 'p1',
  reason: 'poor_quality',
  message: 'The doors do not close.',
  status: 'open',
  outcome: null,
  refund_cents: null,
  resolution_note: null,
  from_cancellation: false,
  created_at: '2026-11-20T10:00:00Z',
  resolved_at: null,
};

beforeEach(() => {
  resetAuthForTests();
  appStore.set(authLoadingAtom, false);
});
afterEach(() => vi.unstubAllGlobals());

describe('disputes on the task page', () => {
  it('lets the poster open a dispute, checking the form first, and then shows what happens next', async () => {
    signInForTest('p1');
    const api = mockFetch({
      'GET /api/tasks/t1/dispute': { body: null },
      'POST /api/tasks/t1/dispute': (init) => ({ status: 201, body: { ...openDispute, ...JSON.parse(String(init.body)) } }),
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<DisputeSection task={task} userId="p1" amountCents={8500} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Open a dispute' }));
    expect(screen.queryByTestId('dispute-card')).not.toBeInTheDocument();
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(within(dialog).getByText(/payment stays held until a Taskhub operator/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open dispute', hidden: true }));
    expect(within(dialog).getByText('Please choose a reason')).toBeInTheDocument();
    expect(within(dialog).getByText('Please describe the problem')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.key.startsWith('POST'))).toHaveLength(0);

    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'The tasker didn\'t show up');
    await userEvent.type(within(dialog).getByLabelText('Describe the problem'), 'Nobody came on Saturday.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open dispute', hidden: true }));
    expect(await screen.findByText('Dispute opened')).toBeInTheDocument();
    const post = api.calls.find((c) => c.key === 'POST /api/tasks/t1/dispute')!;
    expect(JSON.parse(String(post.init.body))).toEqual({ reason: 'no_show', message: 'Nobody came on Saturday.' });
    expect(await screen.findByRole('heading', { name: 'Dispute open' })).toBeInTheDocument();
    expect(screen.getByText(/won't be released automatically/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open a dispute' })).not.toBeInTheDocument();
  });

  it('shows the server field errors of a refused dispute', async () => {
    signInForTest('p1');
    vi.stubGlobal(
      'fetch',
      mockFetch({
        'GET /api/tasks/t1/dispute': { body: null },
        'POST /api/tasks/t1/dispute': { status: 422, body: { error: { code: 'validation_failed', message: 'Invalid', fields: { message: 'Please describe the problem' } } } },
      }).fn,
    );
    renderWithRouter(<DisputeSection task={task} userId="p1" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Open a dispute' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'other');
    await userEvent.type(within(dialog).getByLabelText('Describe the problem'), '   x');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open dispute', hidden: true }));
    expect(await within(dialog).findByText('Please describe the problem')).toBeInTheDocument();
  });

  it('lets the assigned tasker open a dispute about the poster', async () => {
    signInForTest('k1');
    const api = mockFetch({
      'GET /api/tasks/t1/dispute': { body: null },
      'POST /api/tasks/t1/dispute': (init) => ({ status: 201, body: { ...openDispute, opened_by: 'k1', ...JSON.parse(String(init.body)) } }),
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<DisputeSection task={task} userId="k1" amountCents={8500} />);
    expect(await screen.findByText(/Try sorting it out with Paula P\. in the messages first/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Open a dispute' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(within(dialog).getByText(/decides: release it to you,/)).toBeInTheDocument();
    const reasons = within(dialog).getAllByRole('option', { hidden: true }).map((option) => option.textContent);
    expect(reasons).toEqual(['Choose a reason', 'Something else']);
    await userEvent.selectOptions(within(dialog).getByLabelText('Reason'), 'other');
    await userEvent.type(within(dialog).getByLabelText('Describe the problem'), 'Done a week ago; no release, no answer.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open dispute', hidden: true }));
    expect(await screen.findByRole('heading', { name: 'Dispute open' })).toBeInTheDocument();
    expect(screen.getByText(/You opened a dispute/)).toBeInTheDocument();
  });

  it('explains a dispute that came from an unanswered cancellation request', async () => {
    signInForTest('p1');
    const escalated = { ...openDispute, reason: 'other', message: 'Changed my mind', from_cancellation: true };
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/tasks/t1/dispute': { body: escalated } }).fn);
    renderWithRouter(<DisputeSection task={task} userId="p1" />);
    expect(await screen.findByText(/Nobody answered your request to cancel within 48 hours, and Tom T\. had asked to be paid/)).toBeInTheDocument();
    expect(screen.getByText('Changed my mind')).toBeInTheDocument();
  });

  it('tells the tasker a dispute is open and offers nothing to open', async () => {
    signInForTest('k1');
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/tasks/t1/dispute': { body: openDispute } }).fn);
    renderWithRouter(<DisputeSection task={task} userId="k1" />);
    expect(await screen.findByRole('heading', { name: 'Dispute open' })).toBeInTheDocument();
    expect(screen.getByText(/Paula P\. opened a dispute/)).toBeInTheDocument();
    expect(screen.getByText('The work was poor quality')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open a dispute' })).not.toBeInTheDocument();
  });

  it('shows a partial refund in words with the amounts to each party', async () => {
    signInForTest('k1');
    const resolved = { ...openDispute, status: 'resolved', outcome: 'partial_refund', refund_cents: 3000, resolution_note: 'Half the doors were fine.', resolved_at: '2026-11-21T10:00:00Z' };
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/tasks/t1/dispute': { body: resolved } }).fn);
    renderWithRouter(<DisputeSection task={{ ...task, status: 'completed' }} userId="k1" amountCents={8500} />);
    expect(await screen.findByRole('heading', { name: 'Dispute resolved' })).toBeInTheDocument();
    expect(screen.getByTestId('dispute-outcome')).toHaveTextContent('Partly refunded $30.00');
    expect(screen.getByText('$30.00 was refunded to Paula P. and the rest, $55.00, was released to you ($49.50 after the 10% service fee).')).toBeInTheDocument();
    expect(screen.getByText('Half the doors were fine.')).toBeInTheDocument();
  });
});

describe('describeOutcome', () => {
  const ctx = { amountCents: 8500, currency: 'aud', posterName: 'Paula P.', taskerName: 'Tom T.' };
  it('words each outcome for the viewer', () => {
    expect(describeOutcome({ outcome: 'release', refund_cents: null }, { ...ctx, viewer: 'poster' })).toEqual({
      headline: 'Released to the tasker',
      detail: 'The payment of $85.00 was released to Tom T.',
    });
    expect(describeOutcome({ outcome: 'refund', refund_cents: 8500 }, { ...ctx, viewer: 'poster' })).toEqual({
      headline: 'Fully refunded $85.00',
      detail: 'The whole payment of $85.00 was refunded to you and the task is cancelled.',
    });
    expect(describeOutcome({ outcome: 'partial_refund', refund_cents: 1050 }, { ...ctx, viewer: 'poster' }).detail).toBe(
      '$10.50 was refunded to you and the rest, $74.50, was released to Tom T.',
    );
  });
});
