import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { BrowseFilters } from '@/features/tasks/components/browse-filters';
import { mockFetch, renderWithRouter } from '@/testing/render';

afterEach(() => vi.unstubAllGlobals());

describe('browse filters', () => {
  it('toggles a panel that exists, so aria-controls always points at it', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/geocode': { body: [] } }).fn);
    renderWithRouter(<BrowseFilters filters={{}} categories={[{ id: 1, name: 'Home Cleaning' }]} onApply={() => {}} />);
    const toggle = screen.getByRole('button', { name: 'Filters' });
    const panel = () => document.getElementById(toggle.getAttribute('aria-controls')!);
    expect(panel()).not.toBeNull();
    expect(panel()).not.toBeVisible();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(panel()).toBeVisible();
    expect(panel()).toHaveTextContent('Category');
  });

  it('searches within a distance of a picked place, and drops the distance when the place is typed over', async () => {
    const newtown = { display_name: 'Newtown NSW 2042', lat: '-33.8978', lon: '151.1785' };
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/geocode': { body: [newtown] } }).fn);
    const onApply = vi.fn();
    renderWithRouter(<BrowseFilters filters={{}} categories={[]} onApply={onApply} />);
    await userEvent.click(screen.getByRole('button', { name: 'Filters' }));
    // No place picked yet: there is nothing to measure a distance from.
    expect(screen.queryByRole('combobox', { name: 'Distance' })).not.toBeInTheDocument();

    const location = screen.getByRole('combobox', { name: 'Location' });
    await userEvent.type(location, 'Newtown');
    await userEvent.click(await screen.findByRole('option', { name: 'Newtown NSW 2042' }));
    const distance = screen.getByRole('combobox', { name: 'Distance' });
    expect(distance).toHaveDisplayValue('Within 10 km of Newtown NSW 2042');
    await userEvent.selectOptions(distance, 'Within 25 km of Newtown NSW 2042');
    await userEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));
    expect(onApply).toHaveBeenLastCalledWith({ location: 'Newtown NSW 2042', near: '-33.8978,151.1785', radius_km: 25 });

    // Typed text is a name to match, not a place: the distance goes with the coordinates.
    await userEvent.type(location, ' East');
    expect(screen.queryByRole('combobox', { name: 'Distance' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));
    expect(onApply).toHaveBeenLastCalledWith({ location: 'Newtown NSW 2042 East' });
  });
});
