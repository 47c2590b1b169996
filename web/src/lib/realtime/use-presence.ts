import { useEffect, useState } from 'react';

import type { OnlineStatus, Presence, Typing } from '@/lib/realtime/types';
import { loadClient, withClient } from '@/lib/realtime/use-realtime';

// Presence and typing live apart from use-realtime so that only the pages showing them (the task
// page, the messages) carry this code; the home page's first load does not.

/** The live viewer count of a topic (null until the hub sent one). */
export function usePresence(topic: string | null): Presence | null {
  const [presence, setPresence] = useState<{ topic: string; value: Presence } | null>(null);
  useEffect(() => {
    if (!topic) return;
    return withClient((client) => {
      const known = client.presenceOf(topic);
      if (known) setPresence({ topic, value: known });
      return client.onPresence((from, value) => {
        if (from === topic) setPresence({ topic, value });
      });
    });
  }, [topic]);
  return presence && presence.topic === topic ? presence.value : null;
}

/** Calls back for every typing indicator from the other party of the user's tasks. */
export function useTypingFrames(listener: (typing: Typing) => void) {
  useEffect(() => withClient((client) => client.onTyping(listener)), [listener]);
}

/** Tells the other party that the user is typing (throttled by the client). */
export function sendTyping(taskId: string) {
  void loadClient().then((client) => client.typing(taskId));
}

/**
 * Whether the other party of the user's assigned task is online, or when they were last seen
 * (null until the hub answered, and for good when either of them turned sharing off: the hub
 * refuses the subscription then).
 */
export function useOnline(userId: string | null): OnlineStatus | null {
  const [status, setStatus] = useState<{ userId: string; value: OnlineStatus } | null>(null);
  useEffect(() => {
    if (!userId) return;
    return withClient((client) => {
      const unsubscribe = client.subscribe(`online:${userId}`);
      const known = client.onlineOf(userId);
      if (known) setStatus({ userId, value: known });
      const stop = client.onOnline((from, value) => {
        if (from === userId) setStatus({ userId, value });
      });
      return () => {
        stop();
        unsubscribe();
      };
    });
  }, [userId]);
  return status && status.userId === userId ? status.value : null;
}
