/** Reconnection delays: exponential from 500 ms, capped at 15 s, with "full jitter" so a restarted
 * server is not hit by every client at the same instant. */
export const BACKOFF_MIN_MS = 500;
export const BACKOFF_MAX_MS = 15_000;

export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  if (attempt <= 0) return 0;
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
