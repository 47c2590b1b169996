import { PaymentResult } from '@/features/payments/components/payment-result';
import { usePageTitle } from '@/lib/use-page-title';

export function PaymentSuccessRoute() {
  usePageTitle('Payment');
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <PaymentResult />
    </div>
  );
}
