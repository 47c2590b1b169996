import type { QueryClient } from '@tanstack/react-query';

import type { LiveStatus } from '@/lib/realtime/types';

/** How often the queries on screen are refetched while live updates are degraded. */
export const DEGRADED_POLL_MS = 5_000;

/**
 * While the server says live updates are degraded (its node lost the cross-node bus), events
 * from other nodes do not arrive: refetch the queries on screen (the active ones) every
 * DEGRADED_POLL_MS instead. When live updates are back there is no refetch of everything here:
 * the node first resyncs every topic it serves (`subscribed` with `recovered: false`), and each
 * resync refetches its topic's queries; a second refetch would double the herd of requests
 * every node meets at that moment.
 *
 * Every socket of a node hears "degraded" at the same instant, so each client starts its polling
 * at a random point of the first interval: the node then sees an even trickle of polls instead of
 * every client at once, every interval.
 */
export class DegradedPolling {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly client: QueryClient,
    private readonly intervalMs = DEGRADED_POLL_MS,
    private readonly random: () => number = Math.random,
  ) {}

  get polling() {
    return this.timer !== undefined;
  }

  set(live: LiveStatus) {
    if (live === 'degraded') {
      if (this.timer === undefined) this.schedule(Math.floor(this.random() * this.intervalMs));
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(delayMs: number) {
    this.timer = setTimeout(() => {
      this.schedule(this.intervalMs);
      this.refetchOnScreen();
    }, delayMs);
  }

  private refetchOnScreen() {
    void this.client.refetchQueries({ type: 'active' });
  }
}
