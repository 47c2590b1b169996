import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { PriceIncreaseCard } from '@/features/job-changes/components/price-increase-card';
import type { TaskDetail } from '@/lib/marketplace';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const task = {
  id: 't1',
  title: 'Replace the back fence',
  description: 'Paling fence',
  budget_cents: 12000,
  currency: 'aud',
  location: 'Newtown NSW',
  due_date: null,
  category_id: 1,
  category: 'Handyman',
  status: 'assigned',
  created_at: '2026-11-01T00:00:00Z',
  offer_count: 1,
  view_count: 3,
  questions: [],
  poster: { id: 'p1', name: 'Paula P.', avatar_url: null, rating: null },
  assigned_tasker: { id: 'k1', name: 'Tom T.', avatar_url: null, rating: null },
} satisfies TaskDetail;

const pending = {
  id: 'i1',
  task_id: 't1',
  tasker_id: 'k1',
  amount_cents: 4000,
  reason: 'The fence is longer than described.',
  status: 'pending',
  decline_reason: null,
  expires_at: new Date(Date.now() + 71 * 3600_000).toISOString(),
  created_at: new Date().toISOString(),
  answered_at: null,
};

afterEach(() => vi.unstubAllGlobals());

describe('price increases', () => {
  it('lets the tasker ask for more with a reason', async () => {
    signInForTest('k1');
    const api = mockFetch({
      'GET /api/tasks/t1/price-increases': { body: { items: [] } },
      'POST /api/tasks/t1/price-increases': (init) => ({ status: 201, body: { ...pending, ...JSON.parse(String(init.body)) } }),
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<PriceIncreaseCard task={task} userId="k1" amountCents={8500} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Increase price' }));
    await userEvent.type(screen.getByLabelText('Extra amount ($)'), '40');
    await userEvent.type(screen.getByLabelText('Why the price should increase'), 'Longer fence');
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }));
    await vi.waitFor(() => expect(api.calls.some((c) => c.key === 'POST /api/tasks/t1/price-increases')).toBe(true));
    const post = api.calls.find((c) => c.key === 'POST /api/tasks/t1/price-increases')!;
    expect(JSON.parse(String(post.init.body))).toEqual({ amount_cents: 4000, reason: 'Longer fence' });
  });

  it('shows the poster the new total and the fee, and declines', async () => {
    signInForTest('p1');
    const api = mockFetch({
      'GET /api/tasks/t1/price-increases': { body: { items: [pending] } },
      'POST /api/price-increases/i1/decline': { body: { ...pending, status: 'declined' } },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<PriceIncreaseCard task={task} userId="p1" amountCents={8500} />);
    expect(await screen.findByText(/asked for \$40\.00 more/)).toBeInTheDocument();
    expect(screen.getByText('New total: $125.00')).toBeInTheDocument();
    expect(screen.getByText(/Service fee on the increase: \$4\.00/)).toBeInTheDocument();
    expect(screen.getByText(/7[01] h( \d+ min)? left to answer/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Increase price' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Decline' }));
    await vi.waitFor(() => expect(api.calls.some((c) => c.key === 'POST /api/price-increases/i1/decline')).toBe(true));
  });
});
