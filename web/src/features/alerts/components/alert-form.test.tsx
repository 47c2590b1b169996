import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { AlertForm, NOTHING_TO_LOOK_FOR, PICK_A_PLACE } from '@/features/alerts/components/alert-form';
import { mockFetch, renderWithRouter } from '@/testing/render';

afterEach(() => vi.unstubAllGlobals());

const categories = [
  { id: 3, name: 'Handyman' },
  { id: 7, name: 'Painting' },
];
const newtown = { display_name: 'Newtown NSW 2042', lat: -33.89781, lon: 151.1785 };

describe('alert form', () => {
  it('sends keywords, categories, the picked place with its radius, remote and minimum budget', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/geocode': { body: [newtown] } }).fn);
    const onSubmit = vi.fn();
    renderWithRouter(<AlertForm categories={categories} onSubmit={onSubmit} />);

    await userEvent.type(screen.getByLabelText('Keywords'), 'plumbing, leaking tap');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Handyman' }));
    expect(screen.getByLabelText('Distance')).toBeDisabled();
    await userEvent.type(screen.getByRole('combobox', { name: 'Place' }), 'Newt');
    await userEvent.click(await screen.findByRole('option', { name: 'Newtown NSW 2042' }));
    await userEvent.selectOptions(screen.getByLabelText('Distance'), 'Within 25 km');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Include remote tasks' }));
    await userEvent.type(screen.getByLabelText(/Minimum budget/), '80');
    await userEvent.click(screen.getByRole('button', { name: 'Save alert' }));

    expect(onSubmit).toHaveBeenCalledWith({
      name: undefined,
      q: 'plumbing, leaking tap',
      categories: [3],
      place: { label: 'Newtown NSW 2042', lat: -33.89781, lon: 151.1785 },
      radius_km: 25,
      remote_ok: true,
      min_budget_cents: 8000,
      paused: false,
    });
  });

  it('refuses an alert that looks for nothing, and a place typed but not picked', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/geocode': { body: [] } }).fn);
    const onSubmit = vi.fn();
    renderWithRouter(<AlertForm categories={categories} onSubmit={onSubmit} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save alert' }));
    expect(screen.getByRole('alert')).toHaveTextContent(NOTHING_TO_LOOK_FOR);

    await userEvent.type(screen.getByRole('combobox', { name: 'Place' }), 'Somewhere');
    await userEvent.click(screen.getByRole('button', { name: 'Save alert' }));
    expect(screen.getByRole('alert')).toHaveTextContent(PICK_A_PLACE);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('edits an alert from its saved values, pausing it', async () => {
    const onSubmit = vi.fn();
    renderWithRouter(
      <AlertForm
        categories={categories}
        onSubmit={onSubmit}
        alert={{ id: 'a1', name: 'Taps', q: 'tap', categories: [7], place: { label: 'Newtown NSW 2042', lat: -33.9, lon: 151.2 }, radius_km: 10, remote_ok: false, min_budget_cents: 5000, paused: false }}
      />,
    );
    expect(screen.getByRole('checkbox', { name: 'Painting' })).toBeChecked();
    expect(screen.getByLabelText(/Minimum budget/)).toHaveValue('50');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Paused' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save alert' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ name: 'Taps', paused: true, radius_km: 10, min_budget_cents: 5000 }));
  });
});
