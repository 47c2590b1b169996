import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { sessionAtom } from '@/lib/auth/session';
import type { Session } from '@/lib/auth/types';
import { RealtimeClient } from '@/lib/realtime/client';
import { appStore } from '@/lib/store';

/**
 * A socket the test opens and drops by hand, recording what the client sends. The
 * reconnecting socket around it (partysocket) and the client are the real ones.
 */
class TestSocket extends EventTarget {
  static opened: TestSocket[] = [];
  readyState = 0;
  binaryType = 'blob';
  readonly sent: Record<string, unknown>[] = [];

  constructor(readonly url: string) {
    super();
    TestSocket.opened.push(this);
  }

  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close() {
    this.readyState = 3;
  }

  open() {
    this.readyState = 1;
    this.dispatchEvent(new Event('open'));
  }

  /** The connection is lost (the server restarted, the network went away), or closed by the server with `code`. */
  drop(code = 1006) {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event('close'), { code, reason: '', wasClean: code !== 1006 }));
  }

  subscribes() {
    return this.sent.filter((message) => message.type === 'subscribe');
  }
}

const frame = (message: unknown) => JSON.stringify(message);

async function nextSocket(count: number) {
  await vi.waitFor(() => expect(TestSocket.opened).toHaveLength(count), { timeout: 5_000 });
  return TestSocket.opened[count - 1];
}

function signIn(userId: string) {
  appStore.set(sessionAtom, { access_token: 'a', refresh_token: 'r', user: { id: userId } } as unknown as Session);
}

describe('RealtimeClient after a reconnect', () => {
  let client: RealtimeClient | null = null;

  afterEach(() => {
    client?.stop();
    client = null;
    TestSocket.opened = [];
    appStore.set(sessionAtom, null);
  });

  it('resubscribes every topic and its own user topic with since = the last seq it saw', async () => {
    signIn('u1');
    const queries = new QueryClient();
    client = new RealtimeClient(queries, {
      baseUrl: () => 'ws://taskhub.test/ws',
      ticket: async () => 'ticket',
      WebSocket: TestSocket,
    });
    client.start();
    client.subscribe('task:t1');
    const first = await nextSocket(1);
    first.open();
    client.subscribe('feed');
    expect(first.subscribes()).toEqual([
      { type: 'subscribe', topic: 'task:t1' },
      { type: 'subscribe', topic: 'feed' },
    ]);
    client.onMessage(frame({ type: 'subscribed', topic: 'task:t1', seq: 3, recovered: true }));
    client.onMessage(frame({ type: 'subscribed', topic: 'user:u1', seq: 10, recovered: true }));
    client.onMessage(frame({ type: 'event', topic: 'task:t1', seq: 4, event: 'task.updated', data: { id: 't1' } }));
    client.onMessage(frame({ type: 'event', topic: 'user:u1', seq: 12, event: 'unknown.kind', data: {} }));
    // 'feed' was never acknowledged, so it has no seq to resume from.

    first.drop();
    const second = await nextSocket(2);
    expect(second.url).toContain('ticket=');
    second.open();
    expect(second.subscribes()).toEqual(
      expect.arrayContaining([
        { type: 'subscribe', topic: 'task:t1', since: 4 },
        { type: 'subscribe', topic: 'feed' },
        { type: 'subscribe', topic: 'user:u1', since: 12 },
      ]),
    );
    expect(second.subscribes()).toHaveLength(3);
  });

  it('resumes from the number a resync gave, even when it is below the one it saw', async () => {
    // A node that could not read Redis numbered a topic itself, from the time; once Redis answers
    // it resyncs the topic in Redis's (lower) numbers. Resuming from the old number would ask
    // for events that will never exist, and need a refetch on every reconnect.
    signIn('u1');
    client = new RealtimeClient(new QueryClient(), {
      baseUrl: () => 'ws://taskhub.test/ws',
      ticket: async () => 'ticket',
      WebSocket: TestSocket,
    });
    client.start();
    client.subscribe('task:t1');
    const first = await nextSocket(1);
    first.open();
    client.onMessage(frame({ type: 'subscribed', topic: 'task:t1', seq: 9_000, recovered: false }));
    client.onMessage(frame({ type: 'subscribed', topic: 'user:u1', seq: 8_000, recovered: false }));
    client.onMessage(frame({ type: 'subscribed', topic: 'task:t1', seq: 500, recovered: false, refetch_after_ms: 0 }));
    client.onMessage(frame({ type: 'subscribed', topic: 'user:u1', seq: 400, recovered: false }));
    client.onMessage(frame({ type: 'event', topic: 'task:t1', seq: 501, event: 'task.updated', data: { id: 't1' } }));

    first.drop();
    const second = await nextSocket(2);
    second.open();
    expect(second.subscribes()).toEqual([
      { type: 'subscribe', topic: 'task:t1', since: 501 },
      { type: 'subscribe', topic: 'user:u1', since: 400 },
    ]);
  });

  it('tells the app when the server closes the socket of a suspended account (4003), and not on an outage', async () => {
    signIn('u1');
    const onSuspended = vi.fn();
    client = new RealtimeClient(new QueryClient(), {
      baseUrl: () => 'ws://taskhub.test/ws',
      ticket: async () => 'ticket',
      WebSocket: TestSocket,
      onSuspended,
    });
    client.start();
    const first = await nextSocket(1);
    first.open();
    first.drop();
    const second = await nextSocket(2);
    second.open();
    expect(onSuspended).not.toHaveBeenCalled();
    second.drop(4003);
    await vi.waitFor(() => expect(onSuspended).toHaveBeenCalledTimes(1));
  });

  it('refetches a topic whose gap the hub could not replay, and not one it replayed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const queries = new QueryClient();
      const refetched: unknown[] = [];
      vi.spyOn(queries, 'invalidateQueries').mockImplementation(async (filters) => {
        refetched.push(filters?.queryKey);
      });
      client = new RealtimeClient(queries, {
        baseUrl: () => 'ws://taskhub.test/ws',
        WebSocket: TestSocket,
        random: () => 0,
      });
      client.start();
      client.subscribe('task:t1');
      client.subscribe('task:t2');
      const first = await nextSocket(1);
      first.open();
      client.onMessage(frame({ type: 'subscribed', topic: 'task:t1', seq: 5, recovered: true }));
      client.onMessage(frame({ type: 'subscribed', topic: 'task:t2', seq: 7, recovered: true }));
      refetched.length = 0;

      first.drop();
      const second = await nextSocket(2);
      second.open();
      client.onMessage(frame({ type: 'subscribed', topic: 'task:t1', seq: 9, recovered: false }));
      client.onMessage(frame({ type: 'subscribed', topic: 'task:t2', seq: 7, recovered: true }));
      vi.advanceTimersByTime(2_500);
      const keys = JSON.stringify(refetched);
      expect(keys).toContain('t1');
      expect(keys).not.toContain('t2');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('RealtimeClient presence and typing', () => {
  let client: RealtimeClient | null = null;

  afterEach(() => {
    client?.stop();
    client = null;
    TestSocket.opened = [];
  });

  it('keeps the latest count per topic, forgets it on unsubscribe, and hands typing to listeners', async () => {
    client = new RealtimeClient(new QueryClient(), { baseUrl: () => 'ws://taskhub.test/ws', WebSocket: TestSocket });
    client.start();
    const unsubscribe = client.subscribe('task:t1');
    (await nextSocket(1)).open();
    const counts: unknown[] = [];
    const typing: unknown[] = [];
    client.onPresence((topic, presence) => counts.push([topic, presence]));
    client.onTyping((frame) => typing.push(frame));

    client.onMessage(frame({ type: 'presence', topic: 'task:t1', viewers: 3, taskers: 1 }));
    client.onMessage(frame({ type: 'typing', task_id: 't1', user_id: 'u2' }));
    expect(client.presenceOf('task:t1')).toEqual({ viewers: 3, taskers: 1 });
    expect(counts).toEqual([['task:t1', { viewers: 3, taskers: 1 }]]);
    expect(typing).toEqual([{ task_id: 't1', user_id: 'u2' }]);

    unsubscribe();
    expect(client.presenceOf('task:t1')).toBeNull();
  });

  it("subscribes to a user's online state, keeps the latest per user and forgets it on unsubscribe", async () => {
    client = new RealtimeClient(new QueryClient(), { baseUrl: () => 'ws://taskhub.test/ws', WebSocket: TestSocket });
    client.start();
    const socket = await nextSocket(1);
    socket.open();
    const unsubscribe = client.subscribe('online:u2');
    expect(socket.sent).toContainEqual({ type: 'subscribe', topic: 'online:u2' });
    const seen: unknown[] = [];
    client.onOnline((userId, status) => seen.push([userId, status]));

    client.onMessage(frame({ type: 'subscribed', topic: 'online:u2', seq: 0, recovered: false }));
    client.onMessage(frame({ type: 'presence', topic: 'user:u2', online: false, last_seen: '2026-11-25T09:00:00Z' }));
    client.onMessage(frame({ type: 'presence', topic: 'user:u2', online: true, last_seen: null }));
    expect(seen).toEqual([
      ['u2', { online: false, last_seen: '2026-11-25T09:00:00Z' }],
      ['u2', { online: true, last_seen: null }],
    ]);
    expect(client.onlineOf('u2')).toEqual({ online: true, last_seen: null });
    expect(client.presenceOf('user:u2')).toBeNull();

    unsubscribe();
    expect(client.onlineOf('u2')).toBeNull();
    expect(socket.sent).toContainEqual({ type: 'unsubscribe', topic: 'online:u2' });
  });

  it('sends at most one typing message every two seconds', async () => {
    client = new RealtimeClient(new QueryClient(), { baseUrl: () => 'ws://taskhub.test/ws', WebSocket: TestSocket });
    client.start();
    const socket = await nextSocket(1);
    socket.open();
    client.typing('t1', 10_000);
    client.typing('t1', 11_000);
    client.typing('t1', 12_000);
    expect(socket.sent.filter((message) => message.type === 'typing')).toEqual([
      { type: 'typing', task_id: 't1' },
      { type: 'typing', task_id: 't1' },
    ]);
  });
});
