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
});
