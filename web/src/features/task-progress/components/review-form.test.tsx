import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ReviewForm } from '@/features/task-progress/components/review-form';
import { mockFetch, renderWithRouter } from '@/testing/render';

afterEach(() => vi.unstubAllGlobals());

describe('review form', () => {
  it('rates with a real radio group that arrow keys move through', async () => {
    const api = mockFetch({ 'POST /api/tasks/t1/reviews': { status: 201, body: { id: 'r1' } } });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<ReviewForm taskId="t1" otherName="Tom T." />);
    const group = screen.getByRole('radiogroup', { name: 'Rating' });
    expect(group).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(5);
    await userEvent.click(screen.getByRole('radio', { name: '3 stars' }));
    expect(screen.getByRole('radio', { name: '3 stars' })).toBeChecked();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: '4 stars' })).toBeChecked();
    expect(screen.getByRole('radio', { name: '4 stars' })).toHaveFocus();
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(screen.getByRole('radio', { name: '2 stars' })).toBeChecked();
    await userEvent.type(screen.getByLabelText('Your review'), 'Tidy and on time.');
    await userEvent.click(screen.getByRole('button', { name: 'Post review' }));
    await vi.waitFor(() => expect(api.calls.some((c) => c.key === 'POST /api/tasks/t1/reviews')).toBe(true));
    const call = api.calls.find((c) => c.key === 'POST /api/tasks/t1/reviews')!;
    expect(JSON.parse(String(call.init.body))).toMatchObject({ rating: 2 });
  });
});
