import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { LocationInput } from '@/components/location/location-input';
import { mockFetch, renderWithRouter } from '@/testing/render';

afterEach(() => vi.unstubAllGlobals());

function Harness() {
  const [value, setValue] = useState('');
  return <LocationInput value={value} onChange={setValue} label="Location" />;
}

const places = ['Newtown, NSW', 'Newtown, VIC', 'Newtown, QLD', 'Newtown, TAS', 'Newtown, WA', 'Newtown, SA'].map((display_name) => ({ display_name }));

describe('location suggestions', () => {
  it('asks only from 2 characters, shows at most 5, closes on pick and hides below 2', async () => {
    const api = mockFetch({ 'GET /api/geocode': { body: places } });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Location' });
    await userEvent.type(input, 'N');
    await new Promise((r) => setTimeout(r, 350));
    expect(api.calls).toHaveLength(0);
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();

    await userEvent.type(input, 'e');
    const options = await screen.findAllByRole('option');
    expect(options).toHaveLength(5);
    expect(input).toHaveAttribute('aria-expanded', 'true');

    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(input).toHaveValue('Newtown, VIC');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();

    await userEvent.clear(input);
    await userEvent.type(input, 'N');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
  });

  it('shows nothing when the lookup fails', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/geocode': { status: 500, body: {} } }).fn);
    renderWithRouter(<Harness />);
    await userEvent.type(screen.getByRole('combobox', { name: 'Location' }), 'Syd');
    await new Promise((r) => setTimeout(r, 400));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });
});
