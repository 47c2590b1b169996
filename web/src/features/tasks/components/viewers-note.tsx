import { usePresence } from '@/lib/realtime/use-presence';

/**
 * Who else has the task open right now, live from the hub's `presence` frames: "N people viewing"
 * (everyone on the page, you included), and for the poster "N taskers viewing" (everyone but them).
 */
export function ViewersNote({ taskId, isPoster }: { taskId: string; isPoster: boolean }) {
  const presence = usePresence(`task:${taskId}`);
  if (!presence) return null;
  const count = isPoster ? presence.viewers - 1 : presence.viewers;
  if (count <= 0) return null;
  const label = isPoster ? (count === 1 ? 'tasker' : 'taskers') : count === 1 ? 'person' : 'people';
  return (
    <p className="flex items-center gap-2 text-sm text-slate-600" data-testid="viewers-note">
      <span className="inline-block h-2 w-2 rounded-full bg-emerald-500" aria-hidden="true" />
      {count} {label} viewing
    </p>
  );
}
