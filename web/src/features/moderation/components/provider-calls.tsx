import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { useProviderCalls, type ProviderCall } from '@/features/moderation/api/get-provider-calls';
import { useRetryProviderCall } from '@/features/moderation/api/retry-provider-call';
import { dateTime } from '@/features/moderation/components/labels';
import { errorMessage } from '@/lib/http';
import { formatMoney } from '@/lib/marketplace';

/** Payouts and refunds the payments worker parked after repeated failures, each with Retry. */
export function ProviderCalls() {
  const calls = useProviderCalls();
  if (calls.isPending) return <PageSpinner label="Loading parked payouts" />;
  if (calls.isError) return <Alert>{errorMessage(calls.error, 'The parked payouts could not be loaded.')}</Alert>;
  if (calls.data.length === 0) return <p className="text-sm text-slate-600">No parked payouts or refunds. Every provider call went through.</p>;
  return (
    <ul aria-label="Parked provider calls" className="space-y-3">
      {calls.data.map((call) => (
        <li key={call.id}>
          <ParkedCall call={call} />
        </li>
      ))}
    </ul>
  );
}

function ParkedCall({ call }: { call: ProviderCall }) {
  const retry = useRetryProviderCall();
  return (
    <article className="space-y-2 rounded-xl border border-slate-200 bg-white p-4 text-sm" aria-label={`${call.kind} ${call.id}`}>
      <p className="flex flex-wrap justify-between gap-2">
        <span className="font-semibold text-slate-900">
          {call.kind} · {formatMoney(call.amount_cents, 'aud', true)}
        </span>
        <span className="text-slate-600">
          {call.provider} · {call.attempts} attempts · since {dateTime(call.created_at)}
        </span>
      </p>
      {call.last_error && <p className="break-words text-red-700">{call.last_error}</p>}
      <p className="break-words text-slate-600">Payment {call.payment_id}</p>
      {retry.isError && <Alert>{errorMessage(retry.error, 'The retry could not be queued.')}</Alert>}
      {retry.isSuccess ? (
        <p role="status" className="text-emerald-700">
          Queued for another attempt.
        </p>
      ) : (
        <Button size="sm" variant="outline" loading={retry.isPending} onClick={() => retry.mutate(call.id)}>
          Retry
        </Button>
      )}
    </article>
  );
}
