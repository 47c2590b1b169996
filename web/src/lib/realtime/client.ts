import type { QueryClient } from '@tanstack/react-query';
import { atom } from 'jotai';
import ReconnectingWebSocket from 'partysocket/ws';

import { authorizedRequest, getSession, onAuthStateChange, setSession } from '@/lib/auth/session';
import { queryClient as appQueryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { backoffDelay, BACKOFF_MAX_MS, BACKOFF_MIN_MS } from '@/lib/realtime/backoff';
import { applyRealtimeEvent, closeSubscribeGap, refetchTopic } from '@/lib/realtime/cache';
import { DegradedPolling } from '@/lib/realtime/degraded-polling';
import type { ConnectionStatus, LiveStatus, OnlineStatus, Presence, RealtimeEvent, ServerMessage, Typing } from '@/lib/realtime/types';
import { appStore } from '@/lib/store';
import { toast } from '@/lib/toast';

export const connectionStatusAtom = atom<ConnectionStatus>('connecting');
/** 'degraded' while the server says events from its other nodes are not reaching this socket. */
export const liveStatusAtom = atom<LiveStatus>('ok');

/** The close code of every socket of an account an operator suspended (server `CLOSE_SUSPENDED`). */
export const CLOSE_SUSPENDED = 4003;

/** The jitter clients add to a refetch after a resync, on top of the node's slot (`refetchSharedTopic`). */
export const RESYNC_SPREAD_MS = 2_000;
/** The hub forwards one `typing` per socket every 2 s at most; sending more is wasted. */
export const TYPING_EVERY_MS = 2_000;

type Listener = (event: RealtimeEvent) => void;
type TopicState = { refs: number; seq: number | null };

/**
 * The app's one socket (partysocket's reconnecting WebSocket). Signed in, every connection
 * spends a fresh single-use ticket; anonymous sockets see public topics only. After a reconnect
 * every topic is re-subscribed with the last seq seen, and a `recovered: false` answer means the
 * hub could not replay the gap, so that topic's queries are refetched. While the server reports
 * live updates as degraded, the queries on screen are polled instead (DegradedPolling).
 */
export class RealtimeClient {
  private socket: ReconnectingWebSocket | null = null;
  private readonly topics = new Map<string, TopicState>();
  private readonly listeners = new Set<Listener>();
  private attempt = 0;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private userId: string | null = null;
  private readonly polling: DegradedPolling;
  private readonly resyncTimers = new Set<ReturnType<typeof setTimeout>>();
  private readonly random: () => number;
  private readonly presence = new Map<string, Presence>();
  private readonly presenceListeners = new Set<(topic: string, presence: Presence) => void>();
  private readonly typingListeners = new Set<(typing: Typing) => void>();
  private readonly online = new Map<string, OnlineStatus>();
  private readonly onlineListeners = new Set<(userId: string, status: OnlineStatus) => void>();
  private lastTypingAt = 0;

  constructor(
    private readonly client: QueryClient,
    private readonly options: {
      baseUrl?: () => string;
      ticket?: () => Promise<string | null>;
      WebSocket?: unknown;
      setStatus?: (status: ConnectionStatus) => void;
      setLive?: (live: LiveStatus) => void;
      pollIntervalMs?: number;
      random?: () => number;
      /** The server closed the socket because the account was suspended. */
      onSuspended?: () => void;
    } = {},
  ) {
    this.random = options.random ?? Math.random;
    this.polling = new DegradedPolling(client, options.pollIntervalMs, this.random);
  }

  /** Opens the connection (idempotent). */
  start() {
    if (this.socket) return;
    const socket = new ReconnectingWebSocket(() => this.url(), [], {
      WebSocket: this.options.WebSocket,
      // partysocket's own growth is replaced by ours (jittered) inside url(); keep its floor tiny.
      minReconnectionDelay: 1,
      maxReconnectionDelay: 2,
      reconnectionDelayGrowFactor: 1,
      connectionTimeout: 8_000,
      maxEnqueuedMessages: 0,
    });
    socket.addEventListener('open', () => this.onOpen());
    socket.addEventListener('message', (event) => this.onMessage(String((event as MessageEvent).data)));
    // A reconnect we asked for (sign-in, sign-out) is not an outage: the indicator stays put.
    socket.addEventListener('close', (event) => {
      if ((event as CloseEvent).code === CLOSE_SUSPENDED && getSession()) this.options.onSuspended?.();
      if (!this.intentional) this.setStatus('offline');
    });
    this.socket = socket;
    this.pingTimer = setInterval(() => this.send({ type: 'ping' }), 25_000);
  }

  stop() {
    clearInterval(this.pingTimer);
    for (const timer of this.resyncTimers) clearTimeout(timer);
    this.resyncTimers.clear();
    this.setLive('ok');
    this.socket?.close(1000, 'bye');
    this.socket = null;
  }

  /** Drops the connection and opens a new one (new ticket: sign-in or sign-out). */
  reconnect() {
    this.attempt = 0;
    this.intentional = true;
    this.socket?.reconnect(1000, 'auth changed');
  }

  /** Subscribes to a topic while the returned function is not called; counted, so screens can share topics. */
  subscribe(topic: string): () => void {
    const state = this.topics.get(topic);
    if (state) state.refs += 1;
    else {
      this.topics.set(topic, { refs: 1, seq: null });
      this.send({ type: 'subscribe', topic });
    }
    return () => {
      const current = this.topics.get(topic);
      if (!current) return;
      current.refs -= 1;
      if (current.refs <= 0) {
        this.topics.delete(topic);
        this.acked.delete(topic);
        this.presence.delete(topic);
        if (topic.startsWith('online:')) this.online.delete(topic.slice('online:'.length));
        this.publishAcked();
        this.send({ type: 'unsubscribe', topic });
      }
    };
  }

  /** Every event, after it reached the cache (notifications, toasts, animations). */
  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The latest viewer count of a topic, if the hub sent one. */
  presenceOf(topic: string): Presence | null {
    return this.presence.get(topic) ?? null;
  }

  /** Every `presence` frame (viewer counts of `task:{id}` topics). */
  onPresence(listener: (topic: string, presence: Presence) => void): () => void {
    this.presenceListeners.add(listener);
    return () => {
      this.presenceListeners.delete(listener);
    };
  }

  /** The latest online state of a user this client watches (`online:{id}`), if the hub sent one. */
  onlineOf(userId: string): OnlineStatus | null {
    return this.online.get(userId) ?? null;
  }

  /** Every online state the hub sends (about the other party of one of the user's tasks). */
  onOnline(listener: (userId: string, status: OnlineStatus) => void): () => void {
    this.onlineListeners.add(listener);
    return () => {
      this.onlineListeners.delete(listener);
    };
  }

  /** Every `typing` frame: the other party of one of the user's tasks is typing. */
  onTyping(listener: (typing: Typing) => void): () => void {
    this.typingListeners.add(listener);
    return () => {
      this.typingListeners.delete(listener);
    };
  }

  /** Tells the other party of the task that the user is typing (at most once per TYPING_EVERY_MS). */
  typing(taskId: string, now = Date.now()) {
    if (now - this.lastTypingAt < TYPING_EVERY_MS) return;
    this.lastTypingAt = now;
    this.send({ type: 'typing', task_id: taskId });
  }

  /** Test hook and the message path: handles one raw server frame. */
  onMessage(raw: string) {
    let message: ServerMessage;
    try {
      message = JSON.parse(raw) as ServerMessage;
    } catch {
      return;
    }
    if (message.type === 'status') {
      this.setLive(message.live === 'degraded' ? 'degraded' : 'ok');
      return;
    }
    if (message.type === 'presence' && 'online' in message) {
      const userId = message.topic.replace(/^user:/, '');
      const status = { online: message.online, last_seen: message.last_seen };
      this.online.set(userId, status);
      for (const listener of this.onlineListeners) listener(userId, status);
      return;
    }
    if (message.type === 'presence') {
      const presence = { viewers: message.viewers, taskers: message.taskers };
      this.presence.set(message.topic, presence);
      for (const listener of this.presenceListeners) listener(message.topic, presence);
      return;
    }
    if (message.type === 'typing') {
      for (const listener of this.typingListeners) listener({ task_id: message.task_id, user_id: message.user_id });
      return;
    }
    if (message.type === 'subscribed') {
      this.acked.add(message.topic);
      this.publishAcked();
      const state = this.topics.get(message.topic);
      // Not recovered: the hub's number is where the topic goes on from, also when it is below the
      // one this client saw (a node that could not read Redis numbered the topic itself meanwhile).
      const resumeFrom = (seen: number | null) =>
        message.recovered ? Math.max(seen ?? 0, message.seq ?? 0) : (message.seq ?? 0);
      if (state) {
        const hadSeq = state.seq !== null;
        state.seq = resumeFrom(state.seq);
        if (!message.recovered && hadSeq) this.refetchSharedTopic(message.topic, message.refetch_after_ms ?? 0);
        // Whatever happened between a screen's fetch and this first ack was not delivered: close the gap.
        else if (!hadSeq) closeSubscribeGap(this.client, message.topic);
      } else if (message.topic.startsWith('user:')) {
        // The server subscribes a signed-in socket to its own topic; track it to resume with since.
        const hadSeq = this.userId !== null && this.userSeq !== null;
        this.userSeq = resumeFrom(this.userSeq);
        if (!message.recovered && hadSeq) refetchTopic(this.client, message.topic);
        else if (!hadSeq) closeSubscribeGap(this.client, message.topic);
      }
      return;
    }
    if (message.type === 'event') {
      const state = this.topics.get(message.topic);
      if (state) state.seq = Math.max(state.seq ?? 0, message.seq);
      else if (message.topic.startsWith('user:')) this.userSeq = Math.max(this.userSeq ?? 0, message.seq);
      applyRealtimeEvent(this.client, message);
      for (const listener of this.listeners) listener(message);
    }
  }

  private userSeq: number | null = null;
  private intentional = false;
  private readonly acked = new Set<string>();

  /** Which topics the hub confirmed, as a data attribute: end-to-end tests wait on it before acting. */
  private publishAcked() {
    if (typeof document === 'undefined') return;
    document.documentElement.dataset.realtimeTopics = [...this.acked].join(' ');
  }

  private send(message: unknown) {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  private setStatus(status: ConnectionStatus) {
    this.options.setStatus?.(status);
    if (typeof document !== 'undefined') document.documentElement.dataset.realtime = status;
  }

  /**
   * A topic many people watch (the feed, a task page) is resynced for all of them at once when a
   * node gets the bus back. The node gives each client of a crowded topic its own slot
   * (`refetch_after_ms`, paced across the node's topics); each client adds a random point of
   * RESYNC_SPREAD_MS, so the node meets a spread of requests instead of all of them at once.
   */
  private refetchSharedTopic(topic: string, afterMs: number) {
    const timer = setTimeout(() => {
      this.resyncTimers.delete(timer);
      refetchTopic(this.client, topic);
    }, afterMs + Math.floor(this.random() * RESYNC_SPREAD_MS));
    this.resyncTimers.add(timer);
  }

  private setLive(live: LiveStatus) {
    this.polling.set(live);
    this.options.setLive?.(live);
    if (typeof document !== 'undefined') document.documentElement.dataset.live = live;
  }

  private onOpen() {
    // A new socket may be on another node: it says so at once if its node is degraded too.
    this.setLive('ok');
    this.attempt = 0;
    this.intentional = false;
    this.acked.clear();
    this.publishAcked();
    this.setStatus('open');
    for (const [topic, state] of this.topics) {
      this.send(state.seq === null ? { type: 'subscribe', topic } : { type: 'subscribe', topic, since: state.seq });
    }
    if (this.userId && this.userSeq !== null) {
      this.send({ type: 'subscribe', topic: `user:${this.userId}`, since: this.userSeq });
    }
  }

  private async url(): Promise<string> {
    const wait = backoffDelay(this.attempt++);
    if (this.attempt > 1) {
      this.intentional = false;
      this.setStatus(this.attempt > 2 ? 'offline' : 'connecting');
    }
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    const base = this.options.baseUrl?.() ?? defaultBaseUrl();
    const session = getSession();
    const nextUser = session?.user.id ?? null;
    if (nextUser !== this.userId) {
      this.userId = nextUser;
      this.userSeq = null;
    }
    let ticket: string | null = null;
    if (nextUser) {
      try {
        ticket = (await this.options.ticket?.()) ?? (await fetchTicket());
      } catch {
        ticket = null; // The public topics still work; the next reconnect tries again.
      }
    }
    return ticket ? `${base}?ticket=${encodeURIComponent(ticket)}` : base;
  }
}

function defaultBaseUrl() {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/ws`;
}

async function fetchTicket(): Promise<string | null> {
  const { ticket } = await authorizedRequest<{ ticket: string }>('/api/realtime/ticket', { method: 'POST' });
  return ticket;
}

export { BACKOFF_MAX_MS, BACKOFF_MIN_MS };

let shared: RealtimeClient | null = null;

/** The app's one realtime client, started on first use and re-keyed on sign-in and sign-out. */
export function realtime(): RealtimeClient {
  if (!shared) {
    shared = new RealtimeClient(appQueryClient, {
      setStatus: (status) => appStore.set(connectionStatusAtom, status),
      setLive: (live) => appStore.set(liveStatusAtom, live),
      // Suspended: the account's sessions have ended, so this tab signs out at once and says why.
      onSuspended: () => {
        setSession(null, 'SIGNED_OUT');
        toast({
          title: 'Your account is suspended',
          description: 'You have been signed out. Sign in again to see the details, or contact support.',
          variant: 'error',
        });
      },
    });
    shared.start();
    let lastUser = getSession()?.user.id ?? null;
    onAuthStateChange((_event, session) => {
      const user = session?.user.id ?? null;
      if (user !== lastUser) {
        lastUser = user;
        shared?.reconnect();
        // Offers carry amounts only for their poster and tasker: never show one user's copy to another.
        void appQueryClient.invalidateQueries({ queryKey: queryKeys.allOffers });
        void appQueryClient.invalidateQueries({ queryKey: queryKeys.allMessages });
      }
    });
  }
  return shared;
}
