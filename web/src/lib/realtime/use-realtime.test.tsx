import { renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { useRealtimeEvents, useTopic } from '@/lib/realtime/use-realtime';

const client = vi.hoisted(() => ({
  loaded: vi.fn(),
  subscribe: vi.fn(),
  unsubscribe: vi.fn(),
  onEvent: vi.fn(),
  off: vi.fn(),
}));

vi.mock('@/lib/realtime/client', () => ({
  realtime: () => {
    client.loaded();
    return {
      subscribe: (topic: string) => {
        client.subscribe(topic);
        return () => client.unsubscribe(topic);
      },
      onEvent: (listener: unknown) => {
        client.onEvent(listener);
        return client.off;
      },
    };
  },
}));

beforeEach(() => vi.clearAllMocks());

describe('realtime hooks (the client module loads after the first paint)', () => {
  it('subscribe a topic once the client has loaded and unsubscribe on unmount', async () => {
    const { unmount } = renderHook(() => useTopic('tasks'));
    await waitFor(() => expect(client.subscribe).toHaveBeenCalledWith('tasks'));
    unmount();
    expect(client.unsubscribe).toHaveBeenCalledWith('tasks');
  });

  it('never subscribe a component that unmounted before the client loaded', async () => {
    const { unmount } = renderHook(() => useTopic('tasks'));
    unmount();
    await waitFor(() => expect(client.loaded).toHaveBeenCalled());
    expect(client.subscribe).not.toHaveBeenCalled();
  });

  it('listen to events once the client has loaded and stop on unmount', async () => {
    const listener = vi.fn();
    const { unmount } = renderHook(() => useRealtimeEvents(listener));
    await waitFor(() => expect(client.onEvent).toHaveBeenCalledWith(listener));
    unmount();
    expect(client.off).toHaveBeenCalledTimes(1);
  });
});
