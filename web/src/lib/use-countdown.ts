import { useEffect, useState } from 'react';

/** "47 h 12 min", "12 min", "less than a minute"; null once the time is up. */
export function formatRemaining(ms: number): string | null {
  if (ms <= 0) return null;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'less than a minute';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return `${rest} min`;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** Milliseconds left until a deadline, ticking while mounted (null without a deadline). */
export function useCountdown(deadlineMs: number | null, tickMs = 10_000): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadlineMs === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [deadlineMs, tickMs]);
  return deadlineMs === null ? null : deadlineMs - now;
}
