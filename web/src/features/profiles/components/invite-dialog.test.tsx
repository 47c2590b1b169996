import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { InviteDialog } from '@/features/profiles/components/invite-dialog';
import { mockFetch, renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const myTasks = {
  items: [
    { id: 't1', title: 'Paint the fence', status: 'open' },
    { id: 't2', title: 'Mow the lawn', status: 'open' },
    { id: 't3', title: 'Old job', status: 'completed' },
  ],
};

beforeEach(() => signInForTest('p1'));
afterEach(() => vi.unstubAllGlobals());

describe('invite to task', () => {
  it('sends the tasker an invitation to the chosen open task', async () => {
    const api = mockFetch({
      'GET /api/me/tasks': { body: myTasks },
      'POST /api/tasks/t1/invitations': { status: 201, body: { task_id: 't1', tasker_id: 'k1', created_at: '2026-11-05T00:00:00Z' } },
      'POST /api/tasks/t2/invitations': { status: 409, body: { error: { code: 'conflict', message: 'You have already invited Sam L. to this task' } } },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<InviteDialog open onClose={vi.fn()} name="Sam L." taskerId="k1" mode="invite" />);
    const dialog = await screen.findByRole('dialog', { hidden: true });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Invite Sam L. to Paint the fence', hidden: true }));
    expect(await within(dialog).findByText('Invited')).toBeInTheDocument();
    const sent = api.calls.find((call) => call.key === 'POST /api/tasks/t1/invitations')!;
    expect(JSON.parse(String(sent.init.body))).toEqual({ tasker_id: 'k1' });
    expect(within(dialog).queryByText('Old job')).not.toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Invite Sam L. to Mow the lawn', hidden: true }));
    await vi.waitFor(() => expect(within(dialog).getAllByText('Invited')).toHaveLength(2));
    expect(within(dialog).queryByRole('alert', { hidden: true })).not.toBeInTheDocument();
  });

  it('says why an invitation could not be sent', async () => {
    const api = mockFetch({
      'GET /api/me/tasks': { body: myTasks },
      'POST /api/tasks/t1/invitations': {
        status: 422,
        body: { error: { code: 'validation_failed', message: 'Only taskers can be invited to make an offer', fields: { tasker_id: 'Only taskers can be invited to make an offer' } } },
      },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<InviteDialog open onClose={vi.fn()} name="Sam L." taskerId="k1" mode="contact" />);
    const dialog = await screen.findByRole('dialog', { hidden: true });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Invite Sam L. to Paint the fence', hidden: true }));
    expect(await within(dialog).findByRole('alert', { hidden: true })).toHaveTextContent(/Only taskers can be invited|could not be sent/);
  });
});
