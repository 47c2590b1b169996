import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';
import { mockFetch, renderWithRouter } from '@/testing/render';

afterEach(() => vi.unstubAllGlobals());

describe('forgot password', () => {
  it('validates the email, shows the check-your-email view and lets you try another address', async () => {
    const api = mockFetch({ 'POST /api/auth/recover': { status: 202, body: {} } });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<ForgotPasswordForm />, '/forgot-password');
    await userEvent.type(screen.getByLabelText('Email'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(screen.getByText('Recovery email sent')).toBeInTheDocument();
    expect(screen.getByText('Check your inbox for password reset instructions')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Try a different email' }));
    expect(screen.getByLabelText('Email')).toHaveValue('');
  });

  it('shows the fallback texts when the request fails without a message', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'POST /api/auth/recover': { status: 500, body: { error: { code: 'internal', message: '' } } } }).fn);
    renderWithRouter(<ForgotPasswordForm />, '/forgot-password');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Failed to send recovery email')).toBeInTheDocument();
    expect(screen.getByText('An error occurred. Please try again.')).toBeInTheDocument();
  });
});
