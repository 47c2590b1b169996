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

/** The fetch stub, also recording each request's URL and the promise of its reply. */
function recordingFetch(handlers: Parameters<typeof mockFetch>[0]) {
  const api = mockFetch(handlers);
  const requests: Array<{ url: URL; reply: Promise<unknown> }> = [];
  const fn = (input: RequestInfo | URL, init?: RequestInit) => {
    const reply = api.fn(input, init);
    requests.push({ url: new URL(String(input), 'http://localhost'), reply });
    return reply;
  };
  return { fn, requests };
}

const places = ['Newtown, NSW', 'Newtown, VIC', 'Newtown, QLD', 'Newtown, TAS', 'Newtown, WA', 'Newtown, SA'].map((display_name) => ({ display_name }));

describe('location suggestions', () => {
  it('asks only from 2 characters, shows at most 5, closes on pick and hides below 2', async () => {
    const api = recordingFetch({ 'GET /api/geocode': { body: places } });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Location' });
    await userEvent.type(input, 'N');
    await new Promise((r) => setTimeout(r, 350)); // past the 250 ms debounce: no lookup for one character
    expect(api.requests).toHaveLength(0);
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();

    await userEvent.type(input, 'e');
    const options = await screen.findAllByRole('option');
    expect(options).toHaveLength(5);
    // The suggestions came from a lookup of what was typed, and one-character text was never sent.
    expect(api.requests.map(({ url }) => `${url.pathname}?${url.searchParams}`)).toEqual(['/api/geocode?q=Ne']);
    expect(input).toHaveAttribute('aria-expanded', 'true');

    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(input).toHaveValue('Newtown, VIC');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();

    await userEvent.clear(input);
    await userEvent.type(input, 'N');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
  });

  it('shows nothing when the lookup fails', async () => {
    const api = recordingFetch({ 'GET /api/geocode': { status: 500, body: {} } });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Location' });
    await userEvent.type(input, 'Syd');
    // The lookup did happen (for the whole text, after the debounce) and failed…
    await waitFor(() => expect(api.requests.length).toBeGreaterThan(0));
    expect(api.requests.at(-1)?.url.searchParams.get('q')).toBe('Syd');
    await Promise.all(api.requests.map(({ reply }) => reply));
    // …and once its answer is handled, the focused input shows no suggestions.
    expect(input).toHaveFocus();
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });
});
