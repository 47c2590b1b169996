import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { OfferForm } from '@/features/offers/components/offer-form';

function renderForm() {
  const onSubmit = vi.fn();
  render(<OfferForm submitLabel="Submit Offer" pending={false} error={null} onSubmit={onSubmit} />);
  return { onSubmit, user: userEvent.setup() };
}

describe('offer form', () => {
  it('marks the amount and the comment as required', () => {
    renderForm();
    expect(screen.getByLabelText(/your offer/i)).toBeRequired();
    expect(screen.getByLabelText(/message to the poster/i)).toBeRequired();
    expect(screen.queryByText('(optional)')).not.toBeInTheDocument();
  });

  it('does not submit without a comment and says why, as the server would', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByLabelText(/your offer/i), '120');
    await user.type(screen.getByLabelText(/message to the poster/i), '   ');
    await user.click(screen.getByRole('button', { name: 'Submit Offer' }));
    expect(onSubmit).not.toHaveBeenCalled();
    const message = screen.getByLabelText(/message to the poster/i);
    expect(message).toHaveAttribute('aria-invalid', 'true');
    expect(message).toHaveAccessibleDescription('Please add a comment to your offer');
  });

  it('does not submit without a valid amount', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByLabelText(/message to the poster/i), 'I can come on Saturday');
    await user.click(screen.getByRole('button', { name: 'Submit Offer' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText(/your offer/i)).toHaveAccessibleDescription('Please enter your offer amount');
  });

  it('submits the trimmed amount and comment once both are valid, clearing the error on edit', async () => {
    const { onSubmit, user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Submit Offer' }));
    expect(screen.getByText('Please add a comment to your offer')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/message to the poster/i), ' I can come on Saturday ');
    expect(screen.queryByText('Please add a comment to your offer')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText(/your offer/i), '120');
    await user.click(screen.getByRole('button', { name: 'Submit Offer' }));
    expect(onSubmit).toHaveBeenCalledWith({ amount: '120', message: 'I can come on Saturday' });
  });
});
