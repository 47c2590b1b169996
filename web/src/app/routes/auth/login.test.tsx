import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { RequireAuth } from '@/app/require-auth';
import { LoginRoute } from '@/app/routes/auth/login';
import { authLoadingAtom, resetAuthForTests } from '@/lib/auth/session';
import { appStore } from '@/lib/store';
import { mockFetch, renderRoutes } from '@/testing/render';

const user = { id: 'u1', email: 'ada@example.com' };
const session = { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900, expires_at: Math.floor(Date.now() / 1000) + 900, user };

beforeEach(() => {
  resetAuthForTests();
  appStore.set(authLoadingAtom, false);
});
afterEach(() => vi.unstubAllGlobals());

const routes = [
  { path: '/login', element: <LoginRoute /> },
  { path: '/', element: <h1>Home</h1> },
  { path: '/my-tasks', element: <RequireAuth><h1>My Tasks</h1></RequireAuth> },
];

describe('login', () => {
  it('validates email and password with the spec messages', async () => {
    renderRoutes(routes, ['/login']);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'ada');
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(screen.getByText('Email is invalid')).toBeInTheDocument();
  });

  it('toggles password visibility', async () => {
    renderRoutes(routes, ['/login']);
    const input = await screen.findByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
  });

  it('sends a signed-out visitor of a protected route to /login and back after signing in', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'POST /api/auth/login': { body: session }, 'GET /api/me': { body: { user, profile: { id: 'u1' } } } }).fn);
    const { router } = renderRoutes(routes, ['/my-tasks']);
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'My Tasks' })).toBeInTheDocument();
    expect(screen.getByText('Logged in successfully')).toBeInTheDocument();
    expect(screen.getByText('Welcome back to Taskhub!')).toBeInTheDocument();
  });

  it('shows "Login failed" with the server message', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'POST /api/auth/login': { status: 401, body: { error: { code: 'unauthorized', message: 'Invalid email or password' } } } }).fn);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderRoutes(routes, ['/login']);
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findAllByText('Invalid email or password')).not.toHaveLength(0);
    expect(screen.getAllByText('Login failed').length).toBeGreaterThan(0);
  });

  it('shows a spinner on a protected route while the session loads', async () => {
    appStore.set(authLoadingAtom, true);
    renderRoutes(routes, ['/my-tasks']);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your session');
  });
});
