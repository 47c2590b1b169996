import { QueryClient } from '@tanstack/react-query';

import { DegradedPolling } from '@/lib/realtime/degraded-polling';

describe('DegradedPolling', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function pollTimes(random: number) {
    const client = new QueryClient();
    const times: number[] = [];
    vi.spyOn(client, 'refetchQueries').mockImplementation(async () => {
      times.push(Date.now());
    });
    const polling = new DegradedPolling(client, 5_000, () => random);
    polling.set('degraded');
    vi.advanceTimersByTime(16_000);
    polling.set('ok');
    vi.advanceTimersByTime(20_000);
    return times;
  }

  it('starts each client at its own point of the interval, then polls every interval', () => {
    vi.useFakeTimers({ now: 0 });
    expect(pollTimes(0.5)).toEqual([2_500, 7_500, 12_500]);
    vi.setSystemTime(0);
    expect(pollTimes(0.9)).toEqual([4_500, 9_500, 14_500]);
  });

  it('stops polling when live updates are back', () => {
    vi.useFakeTimers({ now: 0 });
    const client = new QueryClient();
    const refetch = vi.spyOn(client, 'refetchQueries').mockResolvedValue();
    const polling = new DegradedPolling(client, 5_000, () => 0);
    polling.set('degraded');
    expect(polling.polling).toBe(true);
    vi.advanceTimersByTime(5_001);
    expect(refetch).toHaveBeenCalledTimes(2);
    polling.set('ok');
    expect(polling.polling).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(refetch).toHaveBeenCalledTimes(2);
  });
});
