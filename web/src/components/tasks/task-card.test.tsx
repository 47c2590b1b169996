import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { TaskCard } from '@/components/tasks/task-card';
import type { TaskSummary } from '@/lib/marketplace';
import { renderWithRouter } from '@/testing/render';

const task: TaskSummary = {
  id: 't1',
  title: 'Paint the fence',
  description: 'Twenty metres of paling fence.',
  budget_cents: 30000,
  currency: 'aud',
  location: 'Newtown NSW',
  due_date: null,
  category_id: 1,
  category: 'Painting',
  status: 'open',
  created_at: '2026-11-01T00:00:00Z',
  offer_count: 0,
  poster: { id: 'p1', name: 'Paula P.', avatar_url: null, rating: 4.5 },
};

describe('task card', () => {
  it("shows the poster's real rating", async () => {
    renderWithRouter(<TaskCard task={task} />);
    expect(await screen.findByLabelText('rated 4.5 out of 5')).toHaveTextContent('4.5');
  });

  it('shows no rating for a poster nobody has reviewed', async () => {
    renderWithRouter(<TaskCard task={{ ...task, poster: { ...task.poster, rating: null } }} />);
    await screen.findByText('Paula P.');
    expect(screen.queryByLabelText(/rated/)).not.toBeInTheDocument();
  });

  it('titles the card with a level-3 heading, or level 2 in a list right under the page title', async () => {
    const { unmount } = renderWithRouter(<TaskCard task={task} />);
    expect(await screen.findByRole('heading', { level: 3, name: 'Paint the fence' })).toBeInTheDocument();
    unmount();
    renderWithRouter(<TaskCard task={task} headingLevel={2} />);
    expect(await screen.findByRole('heading', { level: 2, name: 'Paint the fence' })).toBeInTheDocument();
  });
});
