import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { NotificationsList } from '@/features/notifications/components/notifications-list';
import { renderWithRouter } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

const note = (n: number, isRead: boolean) => ({
  id: `n${n}`,
  type: 'task',
  title: `Notice ${n}`,
  message: `Message ${n}`,
  link: null,
  is_read: isRead,
  created_at: '2026-11-05T00:00:00Z',
});

/** Answers /api/notifications by its query: the first page, the page after `c1`, or the unread ones. */
function notificationsApi() {
  const urls: string[] = [];
  const fn = async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    urls.push(url.pathname + url.search);
    const unread = url.searchParams.get('unread_only') === 'true';
    const cursor = url.searchParams.get('cursor');
    let body;
    if (unread) body = { items: [note(2, false)], unread_count: 1, next_cursor: null, has_more: false };
    else if (cursor === 'c1') body = { items: [note(3, true)], unread_count: 1, next_cursor: null, has_more: false };
    else body = { items: [note(1, true), note(2, false)], unread_count: 1, next_cursor: 'c1', has_more: true };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  return { fn, urls };
}

beforeEach(() => signInForTest('u1'));
afterEach(() => vi.unstubAllGlobals());

describe('notifications list', () => {
  it('loads older notifications after the first page', async () => {
    const api = notificationsApi();
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<NotificationsList />, '/notifications');
    expect(await screen.findByText('Notice 1')).toBeInTheDocument();
    expect(screen.queryByText('Notice 3')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Notice 3')).toBeInTheDocument();
    expect(api.urls).toContain('/api/notifications?limit=50&cursor=c1');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('filters to unread notifications', async () => {
    const api = notificationsApi();
    vi.stubGlobal('fetch', api.fn);
    renderWithRouter(<NotificationsList />, '/notifications');
    await screen.findByText('Notice 1');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Unread only' }));
    await vi.waitFor(() => expect(screen.queryByText('Notice 1')).not.toBeInTheDocument());
    expect(screen.getByText('Notice 2')).toBeInTheDocument();
    expect(api.urls).toContain('/api/notifications?limit=50&unread_only=true');
  });
});
