import { PaymentHistory } from '@/features/payments/components/payment-history';
import { usePageTitle } from '@/lib/use-page-title';

export function PaymentsRoute() {
  usePageTitle('Payments');
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Payments</h1>
      <p className="mt-2 text-sm text-slate-600">Receipts for the tasks you paid for. Payments are held until you release them.</p>
      <div className="mt-6">
        <PaymentHistory />
      </div>
    </div>
  );
}
