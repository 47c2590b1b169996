import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ProfileView } from '@/features/profiles/components/profile-view';
import { mockFetch, renderWithRouter } from '@/testing/render';

afterEach(() => vi.unstubAllGlobals());

const profile = {
  id: 'p1',
  first_name: 'Sam',
  last_name: 'Lee',
  display_name: 'Sam Lee',
  location: 'Fitzroy, VIC',
  bio: 'Handy with a drill.',
  avatar_url: null,
  is_tasker: true,
  skills: ['Plumbing', 'Tiling', 'Painting', 'Carpentry', 'HVAC', 'Roof Repair'].map((name, i) => ({ name, level: 20 + i * 15 })),
  rating: 4.6,
  review_count: 12,
  tasks_completed: 31,
  member_since: '2024-03-01T00:00:00Z',
  verified: { email: true, phone: false, identity: true, payment: false },
  reviews: [{ id: 'r1', author: { name: 'Priya' }, rating: 5, body: 'Fixed our tap in ten minutes.', created_at: '2026-10-01T00:00:00Z' }],
  portfolio: [],
};

describe('profile', () => {
  it('shows live profile data, the verification list and the Taskhub Verified badge', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/profiles/p1': { body: profile } }).fn);
    renderWithRouter(<ProfileView userId="p1" />, '/profile/p1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sam Lee' })).toBeInTheDocument();
    expect(screen.getByText('Taskhub Verified')).toBeInTheDocument();
    expect(screen.getByText('Fitzroy, VIC')).toBeInTheDocument();
    expect(screen.getByText(/4\.6 · 12 reviews/)).toBeInTheDocument();
    expect(screen.getByText('31')).toBeInTheDocument();
    expect(screen.getByText('Fixed our tap in ten minutes.')).toBeInTheDocument();
    const verification = screen.getByRole('heading', { name: 'Verification' }).parentElement!;
    expect(verification).toHaveTextContent('Email✓ Verified');
    expect(verification).toHaveTextContent('Payment methodNot verified');
    expect(verification).toHaveTextContent('PhoneNot verified');
    expect(verification).toHaveTextContent('Identity✓ Verified');
  });

  it('states response figures and last activity only when the server computed them', async () => {
    const active = { ...profile, response_rate: 92, response_minutes: 135, last_active_at: new Date(Date.now() - 3 * 3600_000).toISOString() };
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/profiles/p1': { body: active } }).fn);
    renderWithRouter(<ProfileView userId="p1" />, '/profile/p1');
    const stats = (await screen.findByRole('heading', { name: 'Stats' })).parentElement!;
    expect(stats).toHaveTextContent('Response rate92%');
    expect(stats).toHaveTextContent('Response timewithin 2 hours');
    expect(stats).toHaveTextContent('Last active3 h ago');
  });

  it('leaves out figures there is nothing to compute from, instead of a dash', async () => {
    const quiet = { ...profile, response_rate: null, response_minutes: null, last_active_at: null };
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/profiles/p1': { body: quiet } }).fn);
    renderWithRouter(<ProfileView userId="p1" />, '/profile/p1');
    const stats = (await screen.findByRole('heading', { name: 'Stats' })).parentElement!;
    expect(stats).not.toHaveTextContent('Response');
    expect(stats).not.toHaveTextContent('Last active');
    expect(stats).not.toHaveTextContent('—');
  });

  it('pages reviews beyond the first ones and counts them all on the tab', async () => {
    const first = { ...profile, review_count: 2, reviews_next_cursor: 'c1' };
    const api = mockFetch({
      'GET /api/profiles/p1': { body: first },
      'GET /api/profiles/p1/reviews': {
        body: { items: [{ id: 'r2', author: { name: 'Lee' }, rating: 4, body: 'Came back to finish.', created_at: '2026-09-01T00:00:00Z' }], next_cursor: null, has_more: false },
      },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<ProfileView userId="p1" />, '/profile/p1');
    expect(await screen.findByRole('tab', { name: 'Reviews (2)' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show more reviews' }));
    expect(await screen.findByText('Came back to finish.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more reviews' })).not.toBeInTheDocument();
  });

  it('shows four skills and expands to all of them', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/profiles/p1': { body: profile } }).fn);
    renderWithRouter(<ProfileView userId="p1" />, '/profile/p1');
    await userEvent.click(await screen.findByRole('tab', { name: 'Skills & Experience' }));
    expect(screen.getAllByRole('meter')).toHaveLength(4);
    await userEvent.click(screen.getByRole('button', { name: 'Show all 6 skills' }));
    expect(screen.getAllByRole('meter')).toHaveLength(6);
    expect(screen.getByText('Roof Repair')).toBeInTheDocument();
  });

  it('does not call an unverified customer Taskhub Verified', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/profiles/p1': { body: { ...profile, is_tasker: false } } }).fn);
    renderWithRouter(<ProfileView userId="p1" />, '/profile/p1');
    await screen.findByRole('heading', { level: 1, name: 'Sam Lee' });
    expect(screen.queryByText('Taskhub Verified')).not.toBeInTheDocument();
  });
});
