import { useAtomValue } from 'jotai';
import { Clock, WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';

import { connectionStatusAtom, liveStatusAtom } from '@/lib/realtime/client';
import { useRealtimeConnection } from '@/lib/realtime/use-realtime';

/**
 * A small pill while the live connection is down (after a grace period, so blips stay invisible),
 * or while the server says live updates are delayed (the app polls what is on screen meanwhile).
 */
export function ConnectionIndicator() {
  useRealtimeConnection();
  const status = useAtomValue(connectionStatusAtom);
  const live = useAtomValue(liveStatusAtom);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (status !== 'offline') {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), 2_000);
    return () => clearTimeout(timer);
  }, [status]);
  if (!visible) {
    if (status !== 'open' || live !== 'degraded') return null;
    return (
      <div
        role="status"
        className="fixed bottom-4 left-4 z-50 flex items-center gap-2 rounded-full bg-amber-100/95 px-3 py-1.5 text-xs font-medium text-amber-900 shadow"
      >
        <Clock aria-hidden className="h-3.5 w-3.5" />
        Live updates delayed
      </div>
    );
  }
  return (
    <div
      role="status"
      className="fixed bottom-4 left-4 z-50 flex items-center gap-2 rounded-full bg-slate-900/90 px-3 py-1.5 text-xs font-medium text-white shadow-lg"
    >
      <WifiOff aria-hidden className="h-3.5 w-3.5" />
      Offline — reconnecting…
    </div>
  );
}
