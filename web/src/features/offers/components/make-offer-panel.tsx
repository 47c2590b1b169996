import { useState } from 'react';
import { Link, useLocation } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { useOffers } from '@/features/offers/api/get-offers';
import { useMakeOffer } from '@/features/offers/api/make-offer';
import { useUpdateOffer } from '@/features/offers/api/update-offer';
import { useWithdrawOffer } from '@/features/offers/api/withdraw-offer';
import { fromLocation } from '@/lib/auth/redirect';
import { errorMessage } from '@/lib/http';
import { formatMoney } from '@/lib/marketplace';
import { toast } from '@/lib/toast';
import { lazyOnMount } from '@/lib/when-idle';

/** Only signed-in taskers offer, and the form brings zod: it loads when shown. */
const OfferForm = lazyOnMount(() => import('@/features/offers/components/offer-form').then((module) => module.OfferForm));

/** Make an Offer for taskers; your own pending offer can be updated or withdrawn. */
export function MakeOfferPanel({ taskId, currency, userId, taskOpen }: {
  taskId: string;
  currency: string;
  userId: string | null;
  taskOpen: boolean;
}) {
  const location = useLocation();
  const { data: offers = [] } = useOffers(taskId, userId);
  const make = useMakeOffer(taskId);
  const update = useUpdateOffer(taskId);
  const withdraw = useWithdrawOffer(taskId);
  const [editing, setEditing] = useState(false);
  const mine = offers.find((o) => o.tasker.id === userId && o.status === 'pending');

  return (
    <section aria-labelledby="make-offer-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="make-offer-heading" className="text-lg font-semibold text-slate-900">
        {mine ? 'Your offer' : 'Make an Offer'}
      </h2>
      <div className="mt-4">
        {!taskOpen ? (
          <p className="text-sm text-slate-600">This task is no longer taking offers.</p>
        ) : !userId ? (
          <div className="space-y-3">
            <p className="text-sm text-slate-600">Sign in to make an offer on this task.</p>
            <Link to="/login" state={fromLocation(location)} className={buttonClasses('primary', 'md', 'w-full')}>
              Sign in to make an offer
            </Link>
          </div>
        ) : mine && !editing ? (
          <div className="space-y-3">
            <p className="text-sm text-slate-700">
              You offered <strong>{formatMoney(mine.amount_cents, currency)}</strong>. The poster will be notified when you change it.
            </p>
            {withdraw.isError && <Alert>{errorMessage(withdraw.error, 'Could not withdraw your offer.')}</Alert>}
            <div className="flex gap-2">
              <Button variant="outline" onClick={() => setEditing(true)}>
                Update offer
              </Button>
              <Button
                variant="danger"
                loading={withdraw.isPending}
                onClick={() =>
                  withdraw.mutate(mine.id, { onSuccess: () => toast({ title: 'Offer withdrawn', variant: 'success' }) })
                }
              >
                Withdraw offer
              </Button>
            </div>
          </div>
        ) : mine ? (
          <OfferForm
            initial={{ amount: String((mine.amount_cents ?? 0) / 100), message: mine.message ?? '' }}
            submitLabel="Update Offer"
            pending={update.isPending}
            error={update.error}
            onCancel={() => setEditing(false)}
            onSubmit={(input) =>
              update.mutate(
                { offerId: mine.id, input },
                {
                  onSuccess: () => {
                    setEditing(false);
                    toast({ title: 'Offer updated', variant: 'success' });
                  },
                },
              )
            }
          />
        ) : (
          <OfferForm
            submitLabel="Submit Offer"
            pending={make.isPending}
            error={make.error}
            onSubmit={(input) =>
              make.mutate(input, {
                onSuccess: () => toast({ title: 'Offer submitted', description: 'Your offer has been submitted successfully!', variant: 'success' }),
              })
            }
          />
        )}
      </div>
    </section>
  );
}
