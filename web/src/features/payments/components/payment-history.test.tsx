import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Receipt } from '@/features/payments/api/get-my-payments';
import { PaymentHistory } from '@/features/payments/components/payment-history';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const receipt: Receipt = {
  payment_id: 'p2',
  task_id: 't2',
  task_title: 'Fix the fence',
  status: 'released',
  amount_cents: 20000,
  fee_cents: 2000,
  refunded_cents: 0,
  currency: 'aud',
  paid_at: '2026-11-01T00:00:00Z',
  released_at: '2026-11-03T00:00:00Z',
  refunded_at: null,
};

beforeEach(() => signInForTest('p1'));
afterEach(() => vi.unstubAllGlobals());

describe('payment history', () => {
  it('shows older receipts a page at a time', async () => {
    const older = { ...receipt, payment_id: 'p1', task_id: 't1', task_title: 'Mow the lawn', paid_at: '2026-10-01T00:00:00Z' };
    const urls: string[] = [];
    const api = mockFetch({
      'GET /api/me/payments': [
        { body: { items: [receipt], next_cursor: 'c1', has_more: true } },
        { body: { items: [older], next_cursor: null, has_more: false } },
      ],
    });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      urls.push(String(input));
      return api.fn(input, init);
    });
    renderWithRouter(<PaymentHistory />, '/payments');

    expect(await screen.findByRole('article', { name: 'Receipt for Fix the fence' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Receipt for Mow the lawn' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show older payments' }));
    expect(await screen.findByRole('article', { name: 'Receipt for Mow the lawn' })).toBeInTheDocument();
    expect(urls).toEqual(['/api/me/payments', '/api/me/payments?cursor=c1']);
    expect(screen.queryByRole('button', { name: 'Show older payments' })).not.toBeInTheDocument();
  });
});
