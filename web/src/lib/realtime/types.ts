import type { components } from '@/lib/api-schema';

/**
 * Every event the server publishes and its data (`{event, data}`), generated from the server's
 * `wire::events::LiveEvent` through web/openapi.json: switching over `event` narrows `data`.
 */
export type LiveEvent = components['schemas']['LiveEvent'];

/** An event as a socket receives it on a topic. */
export type RealtimeEvent = { topic: string; seq: number; at?: string } & LiveEvent;

/** Messages of the /ws protocol (docs/architecture.md, "The WebSocket protocol"). */
export type ServerMessage =
  | { type: 'status'; live: LiveStatus }
  | { type: 'subscribed'; topic: string; seq: number; recovered: boolean; refetch_after_ms?: number }
  | ({ type: 'event' } & RealtimeEvent)
  | { type: 'error'; code: string; message: string; topic?: string }
  | { type: 'presence'; topic: string; viewers: number; taskers: number }
  | { type: 'presence'; topic: string; online: boolean; last_seen: string | null }
  | { type: 'typing'; task_id: string; user_id: string }
  | { type: 'pong' };

/** Who is on a `task:{id}` page: distinct signed-in users plus anonymous sockets, and the signed-in among them. */
export type Presence = { viewers: number; taskers: number };

/** Whether the other party of an assigned task has a socket open now, or when their last one closed. */
export type OnlineStatus = { online: boolean; last_seen: string | null };

/** The other party of an assigned task is typing in its conversation. */
export type Typing = { task_id: string; user_id: string };

export type ConnectionStatus = 'connecting' | 'open' | 'offline';

/** Whether events from the other server nodes reach this socket ('degraded' while its node has lost the bus). */
export type LiveStatus = 'ok' | 'degraded';
