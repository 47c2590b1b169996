import { Lock } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useCreateCheckoutSession } from '@/features/payments/api/create-checkout-session';
import { formatMoney, serviceFeeCents, type Offer } from '@/lib/marketplace';
import { toast } from '@/lib/toast';

/** Accepting an offer (spec §4): amount, the 10% fee shown separately, payout copy; Pay Securely → checkout. */
export function AcceptPayDialog({ offer, taskId, currency, onClose }: {
  offer: Offer | null;
  taskId: string;
  currency: string;
  onClose: () => void;
}) {
  const checkout = useCreateCheckoutSession();
  const amount = offer?.amount_cents ?? 0;
  const fee = serviceFeeCents(amount);
  // Still "processing" after success: the browser is on its way to the provider.
  const processing = checkout.isPending || checkout.isSuccess;

  const pay = () => {
    if (!offer) return;
    checkout.mutate(
      { task_id: taskId, offer_id: offer.id },
      {
        onSuccess: (session) => {
          if (!session?.url) {
            checkout.reset();
            toast({ title: 'Payment Error', description: 'No checkout URL returned', variant: 'error' });
            return;
          }
          window.location.assign(session.url);
        },
        onError: (error) =>
          toast({
            title: 'Payment Error',
            description: error.message || 'There was a problem processing your payment',
            variant: 'error',
          }),
      },
    );
  };

  return (
    <Dialog open={Boolean(offer)} onClose={onClose} busy={processing} title="Accept offer and pay">
      {offer && (
        <div className="space-y-4">
          <p className="text-sm text-slate-700">
            You're hiring <strong>{offer.tasker.name}</strong>. Your payment is held securely by Taskhub and only released to the tasker when you confirm
            the task is complete.
          </p>
          <dl className="space-y-2 rounded-xl bg-slate-50 p-4 text-sm">
            <div className="flex justify-between">
              <dt className="text-slate-600">Offer amount</dt>
              <dd className="font-medium text-slate-900">{formatMoney(amount, currency, true)}</dd>
            </div>
            <div className="flex justify-between">
              <dt className="text-slate-600">Service fee (10%, deducted from the tasker's payout)</dt>
              <dd className="font-medium text-slate-900">{formatMoney(fee, currency, true)}</dd>
            </div>
            <div className="flex justify-between border-t border-slate-200 pt-2 text-base">
              <dt className="font-semibold text-slate-900">Total</dt>
              <dd className="font-bold text-slate-900" data-testid="pay-total">
                {formatMoney(amount, currency, true)}
              </dd>
            </div>
          </dl>
          <p className="text-xs text-slate-500">
            The tasker receives {formatMoney(amount - fee, currency, true)}, paid out 3-5 business days after you release the payment. Only you can
            release it.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={onClose} disabled={processing}>
              Cancel
            </Button>
            <Button onClick={pay} loading={processing}>
              {processing ? (
                'Processing...'
              ) : (
                <>
                  <Lock aria-hidden className="h-4 w-4" /> Pay Securely
                </>
              )}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
