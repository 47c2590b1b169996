import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { EditTaskDialog } from '@/features/post-task/components/edit-task-dialog';
import type { TaskDetail } from '@/lib/marketplace';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const task: TaskDetail = {
  id: 't1',
  title: 'Paint the fence',
  description: 'One coat',
  budget_cents: 12000,
  currency: 'aud',
  location: 'Newtown NSW',
  due_date: '2020-01-15',
  category_id: 7,
  category: 'Painting',
  status: 'open',
  created_at: '2019-12-01T00:00:00Z',
  offer_count: 0,
  poster: { id: 'p1', name: 'Paula P.', avatar_url: null, rating: null },
  view_count: 0,
  assigned_tasker: null,
  questions: [],
};

beforeEach(() => signInForTest('p1'));
afterEach(() => vi.unstubAllGlobals());

// Whole forms typed key by key; give them time on a busy machine.
vi.setConfig({ testTimeout: 15_000 });

// jsdom never opens a <dialog>, so its contents are queried with `hidden: true`.
const field = (label: string) => screen.getByLabelText(label);

describe('edit task', () => {
  it('starts from the task, marks fields required and checks them with the wizard rules', async () => {
    const api = mockFetch({ 'GET /api/geocode': { body: [] } });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<EditTaskDialog task={task} open onClose={() => {}} />);
    expect(field('Task title')).toHaveValue('Paint the fence');
    expect(field('Budget (AUD)')).toHaveValue(120);
    expect(field('Category')).toHaveValue('7');
    expect(field('Due date')).toHaveValue('2020-01-15');
    for (const label of ['Task title', 'Description', 'Category', 'Budget (AUD)', 'Due date']) expect(field(label)).toBeRequired();

    await userEvent.clear(field('Task title'));
    await userEvent.clear(field('Budget (AUD)'));
    await userEvent.type(field('Budget (AUD)'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes', hidden: true }));
    expect(field('Task title')).toHaveAccessibleDescription('Please fill in all required fields');
    expect(field('Budget (AUD)')).toHaveAccessibleDescription('Please enter a valid budget amount');
    expect(api.calls.some((c) => c.key === 'PATCH /api/tasks/t1')).toBe(false);
  });

  it('sends only what changed (never the passed due date it already had) and closes', async () => {
    const onClose = vi.fn();
    const api = mockFetch({
      'GET /api/geocode': { body: [] },
      'PATCH /api/tasks/t1': { body: { ...task, title: 'Paint the back fence', budget_cents: 25000 } },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<EditTaskDialog task={task} open onClose={onClose} />);
    await userEvent.clear(field('Task title'));
    await userEvent.type(field('Task title'), 'Paint the back fence');
    await userEvent.clear(field('Budget (AUD)'));
    await userEvent.type(field('Budget (AUD)'), '250');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes', hidden: true }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    const patch = api.calls.find((c) => c.key === 'PATCH /api/tasks/t1')!;
    expect(JSON.parse(String(patch.init.body))).toEqual({ title: 'Paint the back fence', budget_cents: 25000 });
    expect(await screen.findByText('Task updated')).toBeInTheDocument();
  });

  it("shows the server's field errors next to the fields", async () => {
    const api = mockFetch({
      'GET /api/geocode': { body: [] },
      'PATCH /api/tasks/t1': {
        status: 422,
        body: { error: { code: 'validation_failed', message: 'Please check the form', fields: { due_date: 'The due date cannot be in the past' } } },
      },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<EditTaskDialog task={task} open onClose={() => {}} />);
    await userEvent.clear(field('Due date'));
    await userEvent.type(field('Due date'), '2020-01-10');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes', hidden: true }));
    await vi.waitFor(() => expect(field('Due date')).toHaveAccessibleDescription('The due date cannot be in the past'));
    expect(within(document.body).getByRole('alert', { hidden: true })).toHaveTextContent('Please check the form');
  });
});
