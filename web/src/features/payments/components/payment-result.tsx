import { CheckCircle2, Clock, XCircle } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';

import { buttonClasses } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isProcessing, useVerifyPayment, verifyParamsSchema } from '@/features/payments/api/verify-payment';
import { PROCESSING_MESSAGE } from '@/features/payments/components/task-payment-notice';
import { useAuth } from '@/lib/auth/use-auth';
import { statusLabel } from '@/lib/marketplace';
import { toast } from '@/lib/toast';

/** Spec §2 Payment success: verifying spinner, then success (amount, Paid, Assigned), processing (a delayed method), or failure. */
export function PaymentResult() {
  const [params] = useSearchParams();
  const { loading } = useAuth();
  const parsed = useMemo(
    () => verifyParamsSchema.safeParse({ session_id: params.get('session_id'), task_id: params.get('task_id'), offer_id: params.get('offer_id') }),
    [params],
  );
  const verify = useVerifyPayment(parsed.success && !loading ? parsed.data : null);
  const toasted = useRef(false);
  const processing = isProcessing(verify.data);
  const failed = !parsed.success || verify.isError || (verify.data && !verify.data.success && !processing);

  useEffect(() => {
    if (toasted.current) return;
    if (!parsed.success) {
      toasted.current = true;
      toast({ title: 'Missing information', description: 'Payment verification failed due to missing information', variant: 'error' });
    } else if (isProcessing(verify.data)) {
      toasted.current = true;
      toast({ title: 'Payment processing', description: verify.data?.message || PROCESSING_MESSAGE });
    } else if (verify.isError || (verify.data && !verify.data.success)) {
      toasted.current = true;
      toast({
        title: 'Payment verification failed',
        description: verify.error?.message || verify.data?.message || 'There was a problem verifying your payment',
        variant: 'error',
      });
    } else if (verify.data?.success) {
      toasted.current = true;
      toast({ title: 'Payment successful', description: verify.data.message || 'Your task has been assigned and the tasker has been notified', variant: 'success' });
    }
  }, [parsed.success, verify.isError, verify.data, verify.error]);

  const taskId = params.get('task_id');
  if (!failed && !verify.data) {
    return (
      <div role="status" className="flex flex-col items-center gap-4 py-16 text-center">
        <Spinner size="lg" />
        <h1 className="text-2xl font-bold text-slate-900">Verifying your payment…</h1>
        <p className="text-slate-600">This only takes a moment. Please don't close this page.</p>
      </div>
    );
  }
  if (failed) {
    return (
      <div className="flex flex-col items-center py-12 text-center">
        <XCircle aria-hidden className="h-16 w-16 text-red-500" />
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Payment verification failed</h1>
        <p className="mt-2 max-w-md text-slate-600">
          {!parsed.success
            ? 'Payment verification failed due to missing information'
            : verify.error?.message || verify.data?.message || 'There was a problem verifying your payment'}
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {taskId && (
            <Link to={`/task/${taskId}`} className={buttonClasses('primary')}>
              Return to Task
            </Link>
          )}
          <Link to="/" className={buttonClasses('outline')}>
            Back to Home
          </Link>
        </div>
      </div>
    );
  }
  const info = verify.data?.payment_info;
  const amount = info ? `${(info.amount_cents / 100).toFixed(2)} ${info.currency.toUpperCase()}` : '—';
  if (processing) {
    return (
      <div className="flex flex-col items-center py-12 text-center">
        <Clock aria-hidden className="h-16 w-16 text-sky-600" />
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Payment processing</h1>
        <p className="mt-2 max-w-md text-slate-600">{verify.data?.message || PROCESSING_MESSAGE}</p>
        <p className="mt-1 max-w-md text-sm text-slate-500">You'll get a notification when it's confirmed. You can close this page.</p>
        <dl className="mt-8 w-full max-w-sm divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white text-left text-sm shadow-sm">
          <div className="flex justify-between p-4">
            <dt className="text-slate-600">Amount</dt>
            <dd className="font-semibold text-slate-900" data-testid="paid-amount">
              {amount}
            </dd>
          </div>
          <div className="flex justify-between p-4">
            <dt className="text-slate-600">Payment status</dt>
            <dd className="font-semibold text-sky-700">Processing</dd>
          </div>
          <div className="flex justify-between p-4">
            <dt className="text-slate-600">Task status</dt>
            <dd className="font-semibold text-slate-900">Awaiting payment</dd>
          </div>
        </dl>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to={`/task/${taskId}`} className={buttonClasses('primary')}>
            View Task
          </Link>
          <Link to="/" className={buttonClasses('outline')}>
            Back to Home
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-center py-12 text-center">
      <CheckCircle2 aria-hidden className="h-16 w-16 text-emerald-600" />
      <h1 className="mt-4 text-2xl font-bold text-slate-900">Payment successful</h1>
      {/* The server says what was paid for: the task itself, a price increase or a tip. */}
      <p className="mt-2 text-slate-600">{verify.data?.message ? `${verify.data.message}.` : 'Your task has been assigned and the tasker has been notified.'}</p>
      <dl className="mt-8 w-full max-w-sm divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white text-left text-sm shadow-sm">
        <div className="flex justify-between p-4">
          <dt className="text-slate-600">Amount</dt>
          <dd className="font-semibold text-slate-900" data-testid="paid-amount">
            {amount}
          </dd>
        </div>
        <div className="flex justify-between p-4">
          <dt className="text-slate-600">Payment status</dt>
          <dd className="font-semibold text-emerald-700">Paid</dd>
        </div>
        <div className="flex justify-between p-4">
          <dt className="text-slate-600">Task status</dt>
          <dd className="font-semibold text-slate-900">{verify.data?.task_status ? statusLabel(verify.data.task_status) : 'Assigned'}</dd>
        </div>
      </dl>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={`/task/${taskId}`} className={buttonClasses('primary')}>
          View Task
        </Link>
        <Link to="/" className={buttonClasses('outline')}>
          Back to Home
        </Link>
      </div>
    </div>
  );
}
