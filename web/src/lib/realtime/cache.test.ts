import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { backoffDelay, BACKOFF_MAX_MS } from '@/lib/realtime/backoff';
import { queryKeys } from '@/lib/query-keys';
import { applyRealtimeEvent, refetchTopic, taskIdOfLink } from '@/lib/realtime/cache';
import { RealtimeClient, RESYNC_SPREAD_MS } from '@/lib/realtime/client';
import type { RealtimeEvent } from '@/lib/realtime/types';

type Task = { id: string; title: string; status: string; offer_count: number };
type Page = { items: Task[]; next_cursor: string | null };

const task = (id: string, extra: Partial<Task> = {}): Task => ({ id, title: `Task ${id}`, status: 'open', offer_count: 0, ...extra });
/** An event as the socket delivers it; the tests' data is often a part of what the server sends. */
const ev = (topic: string, event: RealtimeEvent['event'], data: unknown, seq = 1) =>
  ({ topic, seq, event, data }) as unknown as RealtimeEvent;

function clientWithList(items: Task[]) {
  const client = new QueryClient();
  client.setQueryData<InfiniteData<Page>>([...queryKeys.taskLists, { sort: 'newest' }], {
    pages: [{ items, next_cursor: null }],
    pageParams: [null],
  });
  return client;
}
const listItems = (client: QueryClient) =>
  client.getQueryData<InfiniteData<Page>>([...queryKeys.taskLists, { sort: 'newest' }])!.pages[0].items;

describe('socket events → query cache', () => {
  it('queues a newly posted task as incoming instead of reshuffling the list', () => {
    const client = clientWithList([task('a')]);
    applyRealtimeEvent(client, ev('tasks', 'task.created', task('b')));
    applyRealtimeEvent(client, ev('tasks', 'task.created', task('b'), 2));
    expect(client.getQueryData<Task[]>(queryKeys.incoming)?.map((t) => t.id)).toEqual(['b']);
    expect(listItems(client).map((t) => t.id)).toEqual(['a']);
  });

  it('drops a task that is no longer open from lists and patches its detail', () => {
    const client = clientWithList([task('a'), task('b')]);
    client.setQueryData(queryKeys.task('a'), task('a'));
    applyRealtimeEvent(client, ev('tasks', 'task.updated', { id: 'a', status: 'assigned', offer_count: 3 }));
    expect(listItems(client).map((t) => t.id)).toEqual(['b']);
    expect(client.getQueryData<Task>(queryKeys.task('a'))).toMatchObject({ status: 'assigned', offer_count: 3 });
  });

  it("shows a poster's edit live: new title, description, budget, place and date everywhere the task is", () => {
    const client = clientWithList([task('a')]);
    client.setQueryData(queryKeys.task('a'), { ...task('a'), questions: [{ id: 'q1' }] });
    const edit = { id: 'a', status: 'open', offer_count: 0, title: 'Paint the back fence', description: 'Two coats', budget_cents: 25000, location: 'Marrickville NSW', due_date: '2099-01-20' };
    applyRealtimeEvent(client, ev('task:a', 'task.updated', edit));
    expect(client.getQueryData(queryKeys.task('a'))).toMatchObject({ ...edit, questions: [{ id: 'q1' }] });
    expect(listItems(client)[0]).toMatchObject(edit);
  });

  it("shows a poster's photo changes live: all photos on the task, the first on its card, never fewer from the feed", () => {
    const client = clientWithList([task('a')]);
    client.setQueryData(queryKeys.task('a'), task('a'));
    const photo = (id: string) => ({ id, url: `/media/tasks/${id}.jpg`, thumb_url: `/media/tasks/${id}_thumb.jpg` });
    applyRealtimeEvent(client, ev('task:a', 'task.updated', { id: 'a', status: 'open', photos: [photo('p1'), photo('p2')] }));
    // The feed's copy carries the first photo only: it must not shrink the task's gallery.
    applyRealtimeEvent(client, ev('tasks', 'task.updated', { id: 'a', status: 'open', photos: [photo('p1')] }, 2));
    expect(client.getQueryData<{ photos: unknown[] }>(queryKeys.task('a'))!.photos).toEqual([photo('p1'), photo('p2')]);
    expect(listItems(client)[0]).toMatchObject({ photos: [photo('p1')] });
  });

  it('adds a public offer, then merges the poster copy with its amount, and updates the count', () => {
    const client = clientWithList([task('t')]);
    client.setQueryData(queryKeys.offers('t'), []);
    client.setQueryData(queryKeys.task('t'), task('t'));
    const offer = { id: 'o1', task_id: 't', tasker: { id: 'u', name: 'Noah K.' }, amount_cents: null, message: null, status: 'pending' };
    applyRealtimeEvent(client, ev('task:t', 'offer.created', { ...offer, offer_count: 1 }));
    applyRealtimeEvent(client, ev('user:p', 'offer.created', { ...offer, amount_cents: 4500, message: 'Hi', offer_count: 1 }));
    // A late public copy must not wipe the amount.
    applyRealtimeEvent(client, ev('task:t', 'offer.created', { ...offer, offer_count: 1 }, 2));
    const offers = client.getQueryData<Array<typeof offer>>(queryKeys.offers('t'))!;
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ amount_cents: 4500, message: 'Hi' });
    expect(client.getQueryData<Task>(queryKeys.task('t'))!.offer_count).toBe(1);
    expect(listItems(client)[0].offer_count).toBe(1);
  });

  it('marks a withdrawn offer', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.offers('t'), [{ id: 'o1', task_id: 't', status: 'pending' }]);
    applyRealtimeEvent(client, ev('task:t', 'offer.withdrawn', { id: 'o1', task_id: 't', status: 'withdrawn', offer_count: 0 }));
    expect(client.getQueryData<Array<{ status: string }>>(queryKeys.offers('t'))![0].status).toBe('withdrawn');
  });

  it('adds questions to the task and notifications with the unread count', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.task('t'), { ...task('t'), questions: [] });
    applyRealtimeEvent(client, ev('task:t', 'question.created', { id: 'q', task_id: 't', body: 'When?' }));
    expect(client.getQueryData<{ questions: unknown[] }>(queryKeys.task('t'))!.questions).toHaveLength(1);

    client.setQueryData(queryKeys.notifications, { items: [], unread_count: 2, next_cursor: null });
    const n = { id: 'n1', type: 'offer', title: 'New offer', message: 'x', link: '/task/t', is_read: false };
    applyRealtimeEvent(client, ev('user:p', 'notification.created', n));
    applyRealtimeEvent(client, ev('user:p', 'notification.created', n, 2));
    expect(client.getQueryData(queryKeys.notifications)).toMatchObject({ unread_count: 3, items: [n] });
  });

  it('refetches the cancellation, dispute and payment of a task when it moves or a party is notified about it', () => {
    const client = new QueryClient();
    const spy = vi.spyOn(client, 'invalidateQueries');
    applyRealtimeEvent(client, ev('task:t', 'task.updated', { id: 't', status: 'assigned' }));
    for (const key of [queryKeys.cancellation('t'), queryKeys.dispute('t'), queryKeys.payment('t')]) {
      expect(spy).toHaveBeenCalledWith({ queryKey: key });
    }
    spy.mockClear();
    const n = { id: 'n2', type: 'dispute', title: 'Dispute opened', message: 'x', link: '/task/u', is_read: false };
    applyRealtimeEvent(client, ev('user:p', 'notification.created', n));
    expect(spy).toHaveBeenCalledWith({ queryKey: queryKeys.task('u') });
    expect(spy).toHaveBeenCalledWith({ queryKey: queryKeys.dispute('u') });
    expect(spy).toHaveBeenCalledWith({ queryKey: queryKeys.cancellation('u') });
    expect(spy).toHaveBeenCalledWith({ queryKey: queryKeys.adminDisputes });
    spy.mockClear();
    // An offer notification says nothing about the lifecycle.
    applyRealtimeEvent(client, ev('user:p', 'notification.created', { ...n, id: 'n3', type: 'offer' }));
    expect(spy).not.toHaveBeenCalledWith({ queryKey: queryKeys.dispute('u') });
    expect(taskIdOfLink('/task/abc?tab=1')).toBe('abc');
    expect(taskIdOfLink('/profile/abc')).toBeNull();
  });

  it('refetches a topic the hub could not replay', () => {
    const client = new QueryClient();
    const spy = vi.spyOn(client, 'invalidateQueries');
    refetchTopic(client, 'task:t');
    expect(spy).toHaveBeenCalledWith({ queryKey: queryKeys.offers('t') });
  });
});

describe('RealtimeClient', () => {
  it('tracks seq, refetches on recovered:false after a gap, and hands events to the cache', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    client.setQueryData(queryKeys.offers('t'), []);
    const spy = vi.spyOn(client, 'invalidateQueries');
    const rt = new RealtimeClient(client, { random: () => 0.5 });
    const seen: string[] = [];
    rt.onEvent((e) => seen.push(e.event));
    rt.subscribe('task:t');
    rt.onMessage(JSON.stringify({ type: 'subscribed', topic: 'task:t', seq: 4, recovered: false }));
    // First ack: only the gap between the screen's fetch and the subscription is closed.
    expect(spy).toHaveBeenCalledWith(expect.objectContaining({ queryKey: queryKeys.offers('t'), predicate: expect.any(Function) }));
    expect(spy).not.toHaveBeenCalledWith({ queryKey: queryKeys.offers('t') });
    rt.onMessage(JSON.stringify({ type: 'event', topic: 'task:t', seq: 5, event: 'offer.created', data: { id: 'o', task_id: 't', offer_count: 1 } }));
    expect(client.getQueryData<unknown[]>(queryKeys.offers('t'))).toHaveLength(1);
    expect(seen).toEqual(['offer.created']);
    rt.onMessage(JSON.stringify({ type: 'subscribed', topic: 'task:t', seq: 9, recovered: false }));
    // Everyone on the topic hears the resync at once: this client refetches at its own moment.
    vi.advanceTimersByTime(RESYNC_SPREAD_MS / 2 - 1);
    expect(spy).not.toHaveBeenCalledWith({ queryKey: queryKeys.offers('t') });
    vi.advanceTimersByTime(1);
    expect(spy).toHaveBeenCalledWith({ queryKey: queryKeys.offers('t') });
    vi.useRealTimers();
  });

  it('waits for the slot the node gives a crowded topic before refetching it', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const spy = vi.spyOn(client, 'invalidateQueries');
    const rt = new RealtimeClient(client, { random: () => 0.5 });
    rt.subscribe('task:t');
    rt.onMessage(JSON.stringify({ type: 'subscribed', topic: 'task:t', seq: 4, recovered: true }));
    rt.onMessage(JSON.stringify({ type: 'subscribed', topic: 'task:t', seq: 9, recovered: false, refetch_after_ms: 7_000 }));
    // The node's slot, then this client's own jitter (half of the spread with random 0.5).
    vi.advanceTimersByTime(7_000 + RESYNC_SPREAD_MS / 2 - 1);
    expect(spy).not.toHaveBeenCalledWith({ queryKey: queryKeys.offers('t') });
    vi.advanceTimersByTime(1);
    expect(spy).toHaveBeenCalledWith({ queryKey: queryKeys.offers('t') });
    vi.useRealTimers();
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffDelay(0)).toBe(0);
    expect(backoffDelay(1, () => 0)).toBe(250);
    expect(backoffDelay(1, () => 1)).toBe(500);
    expect(backoffDelay(4, () => 1)).toBe(4000);
    expect(backoffDelay(30, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(30, () => 0)).toBe(BACKOFF_MAX_MS / 2);
  });
});

describe('degraded live updates', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('maps status frames to the live atom and polls the queries on screen until ok; the resync refetches', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const refetch = vi.spyOn(client, 'refetchQueries').mockResolvedValue();
    const invalidate = vi.spyOn(client, 'invalidateQueries').mockResolvedValue();
    const live: string[] = [];
    const rt = new RealtimeClient(client, {
      setLive: (status) => live.push(status),
      pollIntervalMs: 5_000,
      random: () => 0.5,
    });
    rt.subscribe('task:t');
    rt.onMessage(JSON.stringify({ type: 'subscribed', topic: 'task:t', seq: 4, recovered: true }));

    rt.onMessage(JSON.stringify({ type: 'status', live: 'degraded' }));
    expect(live).toEqual(['degraded']);
    expect(document.documentElement.dataset.live).toBe('degraded');
    expect(refetch).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5_000);
    expect(refetch).toHaveBeenCalledTimes(1);
    expect(refetch).toHaveBeenCalledWith({ type: 'active' });
    rt.onMessage(JSON.stringify({ type: 'status', live: 'degraded' })); // said twice: still one poll loop
    vi.advanceTimersByTime(10_000);
    expect(refetch).toHaveBeenCalledTimes(3);

    // The bus is back: the node resyncs each topic it serves first, then says ok. The resync
    // refetches its topic; ok itself adds no refetch of everything (that would double the herd).
    invalidate.mockClear();
    rt.onMessage(JSON.stringify({ type: 'subscribed', topic: 'task:t', seq: 9, recovered: false }));
    vi.advanceTimersByTime(RESYNC_SPREAD_MS);
    expect(invalidate).toHaveBeenCalled();
    rt.onMessage(JSON.stringify({ type: 'status', live: 'ok' }));
    expect(live).toEqual(['degraded', 'degraded', 'ok']);
    expect(refetch).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(20_000);
    expect(refetch).toHaveBeenCalledTimes(3);
  });

  it('does not poll or refetch when live updates were never degraded', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const refetch = vi.spyOn(client, 'refetchQueries').mockResolvedValue();
    const rt = new RealtimeClient(client);
    rt.onMessage(JSON.stringify({ type: 'status', live: 'ok' }));
    vi.advanceTimersByTime(60_000);
    expect(refetch).not.toHaveBeenCalled();
  });
});
