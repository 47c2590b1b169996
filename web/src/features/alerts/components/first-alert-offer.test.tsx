import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { FirstAlertOffer } from '@/features/alerts/components/first-alert-offer';
import { mockFetch, renderWithRouter } from '@/testing/render';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const skills = [
  { name: 'Cleaning', level: 4 },
  { name: 'Garden Care', level: 3 },
];
const newtown = { display_name: 'Newtown NSW 2042', lat: '-33.8978', lon: '151.1785' };

describe('the first alert proposed to a new tasker', () => {
  it('proposes their skills near their profile location, and saves exactly that', async () => {
    const api = mockFetch({
      'GET /api/me/alerts': { body: { items: [] } },
      'GET /api/geocode': { body: [newtown] },
      'POST /api/me/alerts': { status: 201, body: { id: 'a1' } },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<FirstAlertOffer skills={skills} location="Newtown NSW" />);

    expect(await screen.findByText(/An alert for “cleaning, garden care” within 10 km of Newtown NSW 2042/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create this alert' }));
    await waitFor(() => expect(api.calls.map((call) => call.key)).toContain('POST /api/me/alerts'));
    const sent = JSON.parse(String(api.calls.find((call) => call.key === 'POST /api/me/alerts')!.init.body));
    expect(sent).toEqual({
      q: 'cleaning, garden care',
      categories: [],
      place: { label: 'Newtown NSW 2042', lat: -33.8978, lon: 151.1785 },
      radius_km: 10,
      remote_ok: false,
      min_budget_cents: null,
      paused: false,
    });
  });

  it('proposes no place when the profile location is not found, and no distance either', async () => {
    const api = mockFetch({
      'GET /api/me/alerts': { body: { items: [] } },
      'GET /api/geocode': { body: [] },
      'POST /api/me/alerts': { status: 201, body: { id: 'a1' } },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<FirstAlertOffer skills={skills} location="Atlantis" />);

    const text = await screen.findByText(/An alert for “cleaning, garden care”/);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Create this alert' })).toBeEnabled());
    expect(text).not.toHaveTextContent('within');
    await userEvent.click(screen.getByRole('button', { name: 'Create this alert' }));
    await waitFor(() => expect(api.calls.map((call) => call.key)).toContain('POST /api/me/alerts'));
    const sent = JSON.parse(String(api.calls.find((call) => call.key === 'POST /api/me/alerts')!.init.body));
    expect(sent).toMatchObject({ place: null, radius_km: null });
  });

  it('is not offered to a tasker who has an alert, and "Not now" keeps it away', async () => {
    const heading = () => screen.queryByRole('heading', { name: 'Hear about tasks that fit your skills' });
    const withAlert = mockFetch({ 'GET /api/me/alerts': { body: { items: [{ id: 'a1' }] } } });
    vi.stubGlobal('fetch', withAlert.fn);
    const first = renderWithRouter(<FirstAlertOffer skills={skills} location={null} />);
    await waitFor(() => expect(withAlert.calls.map((call) => call.key)).toEqual(['GET /api/me/alerts']));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heading()).toBeNull();
    first.unmount();

    vi.stubGlobal('fetch', mockFetch({ 'GET /api/me/alerts': { body: { items: [] } } }).fn);
    const second = renderWithRouter(<FirstAlertOffer skills={skills} location={null} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Not now' }));
    expect(heading()).toBeNull();
    second.unmount();
    renderWithRouter(<FirstAlertOffer skills={skills} location={null} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heading()).toBeNull();
  });
});
