import { useAtomValue } from 'jotai';
import { WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';

import { connectionStatusAtom } from '@/lib/realtime/client';
import { useRealtimeConnection } from '@/lib/realtime/use-realtime';

/** A small pill while the live connection is down (after a grace period, so blips stay invisible). */
export function ConnectionIndicator() {
  useRealtimeConnection();
  const status = useAtomValue(connectionStatusAtom);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (status !== 'offline') {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), 2_000);
    return () => clearTimeout(timer);
  }, [status]);
  if (!visible) return null;
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
