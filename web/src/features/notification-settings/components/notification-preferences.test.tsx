import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { NotificationPreferences } from '@/features/notification-settings/components/notification-preferences';
import { deviceLabel } from '@/features/notification-settings/hooks/use-push-device';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const kinds = ['offer', 'message', 'payment', 'dispute', 'reminder', 'task', 'task_alert'];
/** The server's defaults (email off for task updates and alerts), with `email` changes applied. */
const settings = (email: Record<string, boolean> = {}) => ({
  email: { ...Object.fromEntries(kinds.map((kind) => [kind, kind !== 'task' && kind !== 'task_alert'])), ...email },
  push: Object.fromEntries(kinds.map((kind) => [kind, true])),
});

beforeEach(() => signInForTest({ id: 'u1', email: 'ada@example.com', created_at: '2025-02-01T00:00:00Z' }));
afterEach(() => vi.unstubAllGlobals());

describe('notification preferences', () => {
  it('shows each kind per channel and saves only the toggle that changed', async () => {
    const api = mockFetch({
      'GET /api/me/notification-settings': { body: settings() },
      'PUT /api/me/notification-settings': { body: settings({ offer: false }) },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<NotificationPreferences />);

    const offerEmail = await screen.findByRole('checkbox', { name: 'Email for Offers' });
    expect(offerEmail).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Email for Task alerts' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Push for Task alerts' })).toBeChecked();

    await userEvent.click(offerEmail);
    await vi.waitFor(() => expect(offerEmail).not.toBeChecked());
    const put = api.calls.find((call) => call.key === 'PUT /api/me/notification-settings');
    expect(JSON.parse(String(put?.init.body))).toEqual({ email: { offer: false } });
  });

  it('names devices by browser and system', () => {
    expect(deviceLabel('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36')).toBe(
      'Chrome on Android',
    );
    expect(deviceLabel('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15')).toBe(
      'Safari on macOS',
    );
    expect(deviceLabel('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      'Firefox on Windows',
    );
  });
});
