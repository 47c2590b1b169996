import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ContactRoute } from '@/app/routes/info/contact';
import { mockFetch, renderWithRouter } from '@/testing/render';

const site = {
  support_email: 'support@taskhub.com.au',
  business_email: null,
  support_phone: null,
  support_hours: 'Monday-Friday 9am-6pm EST',
  social: [],
};

afterEach(() => vi.unstubAllGlobals());

describe('contact page', () => {
  it('shows the configured support address and hours, and no phone or business address when unset', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/site': { body: site } }).fn);
    renderWithRouter(<ContactRoute />);
    expect(await screen.findByRole('link', { name: 'support@taskhub.com.au' })).toHaveAttribute('href', 'mailto:support@taskhub.com.au');
    expect(screen.getByText('Monday-Friday 9am-6pm EST')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Phone' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Business & partnerships' })).not.toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/\.example/);
  });

  it('shows the phone and business address when configured', async () => {
    const configured = { ...site, business_email: 'partners@taskhub.com.au', support_phone: '+61 2 9000 0000' };
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/site': { body: configured } }).fn);
    renderWithRouter(<ContactRoute />);
    expect(await screen.findByRole('link', { name: '+61 2 9000 0000' })).toHaveAttribute('href', 'tel:+61290000000');
    expect(screen.getByRole('link', { name: 'partners@taskhub.com.au' })).toBeInTheDocument();
  });
});
