import { MarketplacePlaceholder } from '@/app/routes/marketplace/placeholder';

export function PaymentSuccessRoute() {
  return <MarketplacePlaceholder title="Payment">Verifying your payment…</MarketplacePlaceholder>;
}
