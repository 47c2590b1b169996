import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ConfirmSignupStatus } from '@/features/auth/components/confirm-signup-status';
import { SocialSignupForm } from '@/features/auth/components/social-signup-form';
import { mockFetch, renderRoutes } from '@/testing/render';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const signup = { token: 'signup-token', provider: 'facebook', email: 'una@example.com', name: 'Una Verified' };

describe('social sign-up whose address the provider did not verify', () => {
  it('says a link was mailed, keeps the sign-up token in this browser, and signs in nobody', async () => {
    const api = mockFetch({
      'POST /api/auth/oidc/complete-signup': { status: 202, body: { confirmation_sent: true, email: 'una@example.com' } },
    });
    vi.stubGlobal('fetch', api.fn);
    renderRoutes([{ path: '/signup', element: <SocialSignupForm signup={signup} initialType="customer" /> }], ['/signup']);
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Check your email')).toBeInTheDocument();
    expect(screen.getByText(/Facebook did not confirm/)).toBeInTheDocument();
    expect(localStorage.getItem('taskhub.pending-social-signup')).toBe('signup-token');
  });

  it('sends the mailed token with the sign-up token this browser kept', async () => {
    localStorage.setItem('taskhub.pending-social-signup', 'signup-token');
    const api = mockFetch({
      'POST /api/auth/oidc/confirm-signup': { status: 400, body: { error: { code: 'bad_request', message: 'Opened in another browser' } } },
    });
    vi.stubGlobal('fetch', api.fn);
    renderRoutes([{ path: '/signup/confirm', element: <ConfirmSignupStatus /> }], ['/signup/confirm?token=mailed-token']);
    expect(await screen.findByText('Opened in another browser')).toBeInTheDocument();
    const sent = JSON.parse(String(api.calls.find((call) => call.key === 'POST /api/auth/oidc/confirm-signup')!.init.body));
    expect(sent).toEqual({ token: 'mailed-token', signup_token: 'signup-token' });
  });
});
