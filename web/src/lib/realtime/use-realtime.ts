import { useEffect } from 'react';

import type { RealtimeClient } from '@/lib/realtime/client';
import type { RealtimeEvent } from '@/lib/realtime/types';
import { whenIdle } from '@/lib/when-idle';

/** The socket client (and partysocket) is its own chunk, loaded once the page has painted and is idle. */
export const loadClient = () => whenIdle().then(() => import('@/lib/realtime/client')).then((module) => module.realtime());

/**
 * Calls `use` with the client once its module has loaded and returns a cleanup that undoes it,
 * whether the component unmounts before or after the load.
 */
export function withClient(use: (client: RealtimeClient) => () => void): () => void {
  let undo: (() => void) | null = null;
  let cancelled = false;
  void loadClient().then((client) => {
    if (!cancelled) undo = use(client);
  });
  return () => {
    cancelled = true;
    undo?.();
  };
}

/** Keeps a topic subscribed while the component is mounted (null: nothing). */
export function useTopic(topic: string | null) {
  useEffect(() => {
    if (!topic) return;
    return withClient((client) => client.subscribe(topic));
  }, [topic]);
}

/** Calls back for every event (after the cache has it). */
export function useRealtimeEvents(listener: (event: RealtimeEvent) => void) {
  useEffect(() => withClient((client) => client.onEvent(listener)), [listener]);
}

/** Opens the app's socket (no-op once open). */
export function useRealtimeConnection() {
  useEffect(() => {
    void loadClient();
  }, []);
}
