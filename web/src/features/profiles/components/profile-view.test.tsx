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
    expect(verification).toHaveTextContent('PhoneNot verified');
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
