import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { TaskPayment } from '@/features/payments/api/get-task-payment';
import { PaymentResult } from '@/features/payments/components/payment-result';
import { TaskPaymentNotice } from '@/features/payments/components/task-payment-notice';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const returnUrl = '/payment-success?session_id=cs_1&task_id=t1&offer_id=o1';
const processingMessage = "Your payment is processing. We'll assign the task as soon as your bank confirms it.";

beforeEach(() => signInForTest('p1'));
afterEach(() => vi.unstubAllGlobals());

describe('payment result', () => {
  it('shows a payment that is still processing as processing, not as a failure', async () => {
    vi.stubGlobal(
      'fetch',
      mockFetch({
        'POST /api/payments/verify': {
          body: {
            success: false,
            payment_status: 'processing',
            task_status: 'pending_payment',
            message: processingMessage,
            payment_info: { amount_cents: 8500, currency: 'aud' },
          },
        },
      }).fn,
    );
    renderWithRouter(<PaymentResult />, returnUrl);
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment processing' })).toBeInTheDocument();
    expect(screen.getAllByText(processingMessage).length).toBeGreaterThan(0);
    expect(screen.getByTestId('paid-amount')).toHaveTextContent('85.00 AUD');
    expect(screen.getByText('Processing')).toBeInTheDocument();
    expect(screen.getByText('Awaiting payment')).toBeInTheDocument();
    expect(screen.queryByText('Payment verification failed')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Task' })).toHaveAttribute('href', '/task/t1');
  });

  it('still reports a failed payment as a failure', async () => {
    vi.stubGlobal(
      'fetch',
      mockFetch({ 'POST /api/payments/verify': { body: { success: false, payment_status: 'expired', message: 'The checkout expired' } } }).fn,
    );
    renderWithRouter(<PaymentResult />, returnUrl);
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment verification failed' })).toBeInTheDocument();
  });
});

describe('task payment notice', () => {
  const payment: TaskPayment = {
    id: 'pay1',
    task_id: 't1',
    offer_id: 'o1',
    status: 'processing',
    amount_cents: 8500,
    fee_cents: 850,
    payout_cents: 7650,
    refunded_cents: 0,
    currency: 'aud',
    held_at: null,
    released_at: null,
    refunded_at: null,
  };

  it('tells the poster a pending task is waiting for a processing payment', () => {
    renderWithRouter(<TaskPaymentNotice payment={payment} taskStatus="pending_payment" isPoster posterName="Paula P." />);
    expect(screen.getByRole('heading', { name: 'Payment processing' })).toBeInTheDocument();
  });

  it('shows the refund of a task cancelled after payment to both parties', () => {
    const refunded: TaskPayment = { ...payment, status: 'refunded', refunded_cents: 8500 };
    const { unmount } = renderWithRouter(<TaskPaymentNotice payment={refunded} taskStatus="cancelled" isPoster posterName="Paula P." />);
    expect(screen.getByTestId('refund-summary')).toHaveTextContent('Your payment of $85.00 has been refunded.');
    unmount();
    renderWithRouter(<TaskPaymentNotice payment={refunded} taskStatus="cancelled" isPoster={false} posterName="Paula P." />);
    expect(screen.getByTestId('refund-summary')).toHaveTextContent(/^The payment of \$85\.00 has been refunded to Paula P\.$/);
  });
});
