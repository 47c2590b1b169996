import { REMOVED_BY_MODERATOR } from '@/lib/marketplace';

/**
 * What a moderator removed. Everyone reads the notice; the server sends the text itself only to
 * operators, who read it after the notice.
 */
export function RemovedText({ text }: { text?: string | null }) {
  return (
    <>
      <em>{REMOVED_BY_MODERATOR}</em>
      {text ? <span className="mt-1 block rounded bg-amber-50 px-2 py-1 not-italic text-slate-700">{text}</span> : null}
    </>
  );
}
