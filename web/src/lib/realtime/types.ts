/** Messages of the /ws protocol (docs/architecture.md, "The WebSocket protocol"). */
export type ServerMessage =
  | { type: 'status'; live: LiveStatus }
  | { type: 'subscribed'; topic: string; seq: number; recovered: boolean }
  | { type: 'event'; topic: string; seq: number; event: string; data: unknown; at?: string }
  | { type: 'error'; code: string; message: string; topic?: string }
  | { type: 'pong' };

export type RealtimeEvent = { topic: string; seq: number; event: string; data: unknown; at?: string };

export type ConnectionStatus = 'connecting' | 'open' | 'offline';

/** Whether events from the other server nodes reach this socket ('degraded' while its node has lost the bus). */
export type LiveStatus = 'ok' | 'degraded';
