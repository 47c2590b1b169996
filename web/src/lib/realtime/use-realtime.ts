import { useEffect } from 'react';

import { realtime } from '@/lib/realtime/client';
import type { RealtimeEvent } from '@/lib/realtime/types';

/** Keeps a topic subscribed while the component is mounted (null: nothing). */
export function useTopic(topic: string | null) {
  useEffect(() => {
    if (!topic) return;
    return realtime().subscribe(topic);
  }, [topic]);
}

/** Calls back for every event (after the cache has it). */
export function useRealtimeEvents(listener: (event: RealtimeEvent) => void) {
  useEffect(() => {
    const off = realtime().onEvent(listener);
    return () => {
      off();
    };
  }, [listener]);
}

/** Opens the app's socket (no-op once open). */
export function useRealtimeConnection() {
  useEffect(() => {
    realtime();
  }, []);
}
