import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { PortfolioManager } from '@/features/profiles/components/portfolio-manager';
import { mockFetch, renderWithRouter } from '@/testing/render';

afterEach(() => vi.unstubAllGlobals());

const items = [
  { id: 'a', title: 'Deck', description: 'Merbau', image_url: '/media/portfolio/a.jpg', thumb_url: '/media/portfolio/a_thumb.jpg' },
  { id: 'b', title: 'Fence', description: null, image_url: '/media/portfolio/b.jpg', thumb_url: '/media/portfolio/b_thumb.jpg' },
];

describe('portfolio manager', () => {
  it('moves items with the up and down buttons (never past the ends)', async () => {
    const fetch = mockFetch({ 'PATCH /api/me/portfolio/b': { body: items[1] }, 'GET /api/profiles/u1': { body: {} } });
    vi.stubGlobal('fetch', fetch.fn);
    renderWithRouter(<PortfolioManager userId="u1" items={items} />);
    expect(screen.getByRole('button', { name: 'Move Deck up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move Fence down' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Move Fence up' }));
    await waitFor(() => expect(fetch.calls.some((call) => call.key === 'PATCH /api/me/portfolio/b')).toBe(true));
    const patch = fetch.calls.find((call) => call.key === 'PATCH /api/me/portfolio/b')!;
    expect(JSON.parse(String(patch.init.body))).toEqual({ position: 0 });
  });

  it('sends a new item as a form with the picture, title and description', async () => {
    const created = { id: 'c', title: 'Shed', description: 'Colorbond', image_url: '/x.jpg', thumb_url: '/x_thumb.jpg' };
    const fetch = mockFetch({ 'POST /api/me/portfolio': { status: 201, body: created } });
    vi.stubGlobal('fetch', fetch.fn);
    renderWithRouter(<PortfolioManager userId="u1" items={items} />);
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'shed.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Picture'), file);
    await userEvent.type(screen.getByLabelText('Title'), 'Shed');
    await userEvent.type(screen.getByLabelText(/Description/), 'Colorbond');
    await userEvent.click(screen.getByRole('button', { name: 'Add to portfolio' }));
    await waitFor(() => expect(fetch.calls.some((call) => call.key === 'POST /api/me/portfolio')).toBe(true));
    const form = fetch.calls.find((call) => call.key === 'POST /api/me/portfolio')!.init.body as FormData;
    expect(form.get('title')).toBe('Shed');
    expect(form.get('description')).toBe('Colorbond');
    expect((form.get('file') as File).name).toBe('shed.png');
  });

  it('says the portfolio is full at 12 items instead of offering the form', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => ({ ...items[0], id: `i${i}`, title: `Job ${i}` }));
    renderWithRouter(<PortfolioManager userId="u1" items={twelve} />);
    expect(screen.getByText(/Your portfolio is full \(12 items\)/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Picture')).toBeNull();
  });
});
