import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { SettingsForm } from '@/features/settings/components/settings-form';
import { profileAtom } from '@/lib/auth/session';
import type { Profile } from '@/lib/auth/types';
import { appStore } from '@/lib/store';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const profile: Profile = {
  id: 'u1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  display_name: 'Ada Lovelace',
  custom_display_name: null,
  phone: null,
  location: 'Sydney',
  bio: null,
  avatar_url: null,
  member_since: '2025-02-01T00:00:00Z',
};

beforeEach(() => {
  signInForTest({ id: 'u1', email: 'ada@example.com', created_at: '2025-02-01T00:00:00Z' });
  appStore.set(profileAtom, profile);
});
afterEach(() => vi.unstubAllGlobals());

describe('settings', () => {
  it('edits the chosen display name, not the computed one, and shows email and member since', () => {
    renderWithRouter(<SettingsForm />);
    expect(screen.getByLabelText('Display name')).toHaveValue('');
    expect(screen.getByLabelText('First name')).toHaveValue('Ada');
    expect(screen.getByLabelText('Location')).toHaveValue('Sydney');
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('February 2025')).toBeInTheDocument();
  });

  it('saves the six fields and shows the spec toast', async () => {
    const api = mockFetch({ 'PATCH /api/me/profile': (init) => ({ body: { ...profile, ...JSON.parse(String(init.body)) } }) });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<SettingsForm />);
    await userEvent.type(screen.getByLabelText('Display name'), 'Countess');
    await userEvent.type(screen.getByLabelText('Phone'), '0400 111 222');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Settings updated')).toBeInTheDocument();
    expect(screen.getByText('Your account settings have been updated successfully.')).toBeInTheDocument();
    expect(JSON.parse(String(api.calls[0].init.body))).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      display_name: 'Countess',
      phone: '0400 111 222',
      location: 'Sydney',
      bio: '',
    });
    expect(appStore.get(profileAtom)?.display_name).toBe('Countess');
  });

  it('shows the failure toast and the server field errors', async () => {
    vi.stubGlobal(
      'fetch',
      mockFetch({ 'PATCH /api/me/profile': { status: 422, body: { error: { code: 'validation_failed', message: 'Invalid', fields: { phone: 'Phone is too long' } } } } }).fn,
    );
    renderWithRouter(<SettingsForm />);
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Failed to update settings')).toBeInTheDocument();
    expect(screen.getByText('An error occurred while updating your settings. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Phone is too long')).toBeInTheDocument();
  });

  it('requires first and last name', async () => {
    renderWithRouter(<SettingsForm />);
    await userEvent.clear(screen.getByLabelText('First name'));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByText('First name is required')).toBeInTheDocument();
  });
});
