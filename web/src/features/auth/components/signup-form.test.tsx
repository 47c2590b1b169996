import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { SignupForm } from '@/features/auth/components/signup-form';
import { mockFetch, renderRoutes } from '@/testing/render';

afterEach(() => vi.unstubAllGlobals());

function renderSignup() {
  return renderRoutes([
    { path: '/signup', element: <SignupForm /> },
    { path: '/login', element: <h1>Sign in page</h1> },
  ], ['/signup']);
}

describe('sign-up form', () => {
  it('shows every message of spec §5 and clears one when its field is edited', async () => {
    renderSignup();
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('You must agree to the terms and conditions')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('First name'), 'A');
    expect(screen.queryByText('First name is required')).not.toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
  });

  it('asks a tasker for at least one skill and labels change with the account type', async () => {
    renderSignup();
    await userEvent.click(screen.getByRole('tab', { name: 'I want to provide services' }));
    expect(screen.getByRole('tab', { name: 'I want to provide services' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText(/About your services/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create tasker account' }));
    expect(screen.getByText('Please add at least one skill')).toBeInTheDocument();
  });

  it('signs up, shows the spec toast and goes to /login', async () => {
    const api = mockFetch({ 'POST /api/auth/signup': { status: 201, body: { user: { id: 'u1', email: 'ada@example.com' } } } });
    vi.stubGlobal('fetch', api.fn);
    renderSignup();
    await userEvent.type(screen.getByLabelText('First name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Last name'), 'Lovelace');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'secret1');
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Sign in page' })).toBeInTheDocument();
    expect(screen.getByText('Account created successfully')).toBeInTheDocument();
    expect(screen.getByText('Welcome to Taskhub! Please check your email to verify your account.')).toBeInTheDocument();
    const body = JSON.parse(String(api.calls.find((call) => call.key === 'POST /api/auth/signup')!.init.body));
    expect(body).toMatchObject({ email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', account_type: 'customer' });
    expect(body).not.toHaveProperty('confirm_password');
  });

  it('shows the server message in a "Signup failed" toast', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'POST /api/auth/signup': { status: 409, body: { error: { code: 'conflict', message: 'An account with this email already exists' } } } }).fn);
    renderSignup();
    await userEvent.type(screen.getByLabelText('First name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Last name'), 'Lovelace');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'secret1');
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Signup failed')).toBeInTheDocument();
    expect(screen.getByText('An account with this email already exists')).toBeInTheDocument();
  });
});
