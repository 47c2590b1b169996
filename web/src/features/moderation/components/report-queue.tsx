import { useState } from 'react';

import { Alert } from '@/components/ui/alert';
import { ShowOlder } from '@/components/ui/show-older';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { useReportQueue, type QueueStatus } from '@/features/moderation/api/get-report-queue';
import { ReportCard } from '@/features/moderation/components/report-card';
import { errorMessage } from '@/lib/http';

/** The moderation queue: one card per reported target, oldest first, each with its decision. */
export function ReportQueue() {
  const [status, setStatus] = useState<QueueStatus>('open');
  const queue = useReportQueue(status);
  const items = queue.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Tabs
      label="Reports"
      value={status}
      onChange={setStatus}
      items={[
        { value: 'open', label: 'Open' },
        { value: 'resolved', label: 'Resolved' },
      ]}
    >
      {queue.isPending ? (
        <PageSpinner label="Loading reports" />
      ) : queue.isError ? (
        <Alert>{errorMessage(queue.error, 'The reports could not be loaded. Please try again.')}</Alert>
      ) : items.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 p-8 text-center text-slate-600">
          {status === 'open' ? 'No open reports. Nothing needs a decision.' : 'No resolved reports yet.'}
        </p>
      ) : (
        <>
          <ul className="space-y-4" aria-label={status === 'open' ? 'Open reports' : 'Resolved reports'}>
            {items.map((item) => (
              <li key={item.id}>
                <ReportCard item={item} />
              </li>
            ))}
          </ul>
          <ShowOlder query={queue} what="reports" className="mt-4" />
        </>
      )}
    </Tabs>
  );
}
