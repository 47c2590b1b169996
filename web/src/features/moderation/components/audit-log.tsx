import { Alert } from '@/components/ui/alert';
import { ShowOlder } from '@/components/ui/show-older';
import { PageSpinner } from '@/components/ui/spinner';
import { useAuditLog } from '@/features/moderation/api/get-audit-log';
import { ACTION_LABELS, dateTime } from '@/features/moderation/components/labels';
import { errorMessage } from '@/lib/http';

/** Every operator action: who, what, on what, why and when. */
export function AuditLog() {
  const log = useAuditLog();
  if (log.isPending) return <PageSpinner label="Loading the audit log" />;
  if (log.isError) return <Alert>{errorMessage(log.error, 'The audit log could not be loaded.')}</Alert>;
  const items = log.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <p className="text-sm text-slate-600">No operator actions yet.</p>;
  return (
    <div className="space-y-4">
      <ul aria-label="Audit log" className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
        {items.map((item) => (
          <li key={item.id} className="space-y-1 px-4 py-3 text-sm">
            <p className="flex flex-wrap justify-between gap-2">
              <span className="font-semibold text-slate-900">
                {ACTION_LABELS[item.action]}
                {item.refused && <span className="ml-2 rounded bg-red-50 px-1.5 py-0.5 text-xs font-medium text-red-800">Refused: part of the case</span>}
              </span>
              <time dateTime={item.created_at} className="text-slate-600">
                {dateTime(item.created_at)}
              </time>
            </p>
            <p className="break-words text-slate-700">
              {item.operator.email} · {item.target.type.replace('_', ' ')} {item.target.id}
            </p>
            {item.note && <p className="whitespace-pre-line break-words text-slate-700">{item.note}</p>}
          </li>
        ))}
      </ul>
      <ShowOlder query={log} what="actions" />
    </div>
  );
}
