import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { PhoneVerification } from '@/features/verification/components/phone-verification';
import { profileAtom } from '@/lib/auth/session';
import type { Profile } from '@/lib/auth/types';
import { appStore } from '@/lib/store';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const profile: Profile = {
  id: 'k1',
  first_name: 'Sam',
  last_name: 'Lee',
  display_name: 'Sam Lee',
  phone: null,
  phone_verified: false,
  location: null,
  bio: null,
  avatar_url: null,
};

const inAMinute = () => new Date(Date.now() + 60_000).toISOString();

beforeEach(() => {
  signInForTest('k1');
  appStore.set(profileAtom, profile);
});
afterEach(() => vi.unstubAllGlobals());

describe('phone verification', () => {
  it('texts a code, counts down to a resend, and verifies the number', async () => {
    const api = mockFetch({
      'POST /api/me/phone/start': { status: 202, body: { phone: '+61412345678', expires_at: inAMinute(), resend_at: inAMinute() } },
      'POST /api/me/phone/verify': [
        { status: 422, body: { error: { code: 'validation_failed', message: 'x', fields: { code: 'That code is not right. Check the text and try again.' } } } },
        { body: { ...profile, phone: '+61412345678', phone_verified: true } },
      ],
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<PhoneVerification />, '/settings');

    await userEvent.type(screen.getByLabelText('Mobile number'), '0412 345 678');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('+61412345678')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Resend code in \d+s$/ })).toBeDisabled();

    await userEvent.type(screen.getByLabelText('Verification code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify number' }));
    expect(await screen.findByText('That code is not right. Check the text and try again.')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Verification code'));
    await userEvent.type(screen.getByLabelText('Verification code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify number' }));
    expect(await screen.findByText('Mobile verified')).toBeInTheDocument();
    expect(JSON.parse(String(api.calls.at(-1)?.init.body))).toEqual({ code: '123456' });
  });

  it('shows why a number was refused and when too many codes were asked for', async () => {
    vi.stubGlobal(
      'fetch',
      mockFetch({
        'POST /api/me/phone/start': [
          { status: 422, body: { error: { code: 'validation_failed', message: 'x', fields: { phone: 'We can only send codes to numbers in AU' } } } },
          { status: 429, body: { error: { code: 'rate_limited', message: 'Too many requests.' } } },
        ],
      }).fn,
    );
    renderWithRouter(<PhoneVerification />, '/settings');
    await userEvent.type(screen.getByLabelText('Mobile number'), '+1 415 555 2671');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('We can only send codes to numbers in AU')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("You've asked for too many codes.");
  });
});
