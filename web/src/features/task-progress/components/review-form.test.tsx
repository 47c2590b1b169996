import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ReviewForm } from '@/features/task-progress/components/review-form';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const mine = {
  id: 'r1',
  task_id: 't1',
  reviewer_id: 'p1',
  reviewee_id: 'k1',
  rating: 4,
  body: 'Tidy work',
  created_at: '2026-11-05T00:00:00Z',
};

beforeEach(() => signInForTest('p1'));
afterEach(() => vi.unstubAllGlobals());

describe('review form', () => {
  it('is replaced by the review already written', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/tasks/t1/reviews': { body: [mine] } }).fn);
    renderWithRouter(<ReviewForm taskId="t1" otherName="Tom T." />);
    expect(await screen.findByText('You reviewed this task')).toBeInTheDocument();
    expect(screen.getByText(/4 stars — your review of Tom T\. is posted/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Post review' })).not.toBeInTheDocument();
  });

  it('shows the other side\'s visible review but still asks for the viewer\'s own', async () => {
    const theirs = { ...mine, id: 'r2', reviewer_id: 'k1', reviewee_id: 'p1' };
    vi.stubGlobal('fetch', mockFetch({ 'GET /api/tasks/t1/reviews': { body: [theirs] } }).fn);
    renderWithRouter(<ReviewForm taskId="t1" otherName="Tom T." />);
    expect(await screen.findByRole('button', { name: 'Post review' })).toBeInTheDocument();
  });

  it('turns a 409 (reviewed in another tab) into the written review', async () => {
    const api = mockFetch({
      'GET /api/tasks/t1/reviews': [{ body: [] }, { body: [mine] }],
      'POST /api/tasks/t1/reviews': { status: 409, body: { error: { code: 'conflict', message: 'You have already reviewed this task' } } },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<ReviewForm taskId="t1" otherName="Tom T." />);
    await userEvent.click(await screen.findByRole('radio', { name: '4 stars' }));
    await userEvent.type(screen.getByLabelText('Your review'), 'Tidy work');
    await userEvent.click(screen.getByRole('button', { name: 'Post review' }));
    expect(await screen.findByText('You reviewed this task')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.key === 'GET /api/tasks/t1/reviews')).toHaveLength(2);
  });

  it('asks for a rating before posting', async () => {
    const api = mockFetch({ 'GET /api/tasks/t1/reviews': { body: [] } });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<ReviewForm taskId="t1" otherName="Tom T." />);
    await userEvent.click(await screen.findByRole('button', { name: 'Post review' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please choose a rating');
    expect(api.calls.some((call) => call.key === 'POST /api/tasks/t1/reviews')).toBe(false);
  });

  it('rates with a real radio group that arrow keys move through', async () => {
    const api = mockFetch({ 'GET /api/tasks/t1/reviews': { body: [] }, 'POST /api/tasks/t1/reviews': { status: 201, body: { id: 'r1' } } });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<ReviewForm taskId="t1" otherName="Tom T." />);
    const group = await screen.findByRole('radiogroup', { name: 'Rating' });
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
