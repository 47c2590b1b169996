import { AnimatePresence, m } from 'framer-motion';
import { Star } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { ReportAction } from '@/components/moderation/report-action';
import { Avatar } from '@/components/ui/avatar';
import { Spinner } from '@/components/ui/spinner';
import { VerifiedBadges } from '@/components/ui/verified-badges';
import { useOffers } from '@/features/offers/api/get-offers';
import { formatMoney, initialsOf, REMOVED_BY_MODERATOR, relativeTime, type Offer } from '@/lib/marketplace';

const statusText: Record<string, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  not_selected: 'Not selected',
  withdrawn: 'Withdrawn',
};

/** The task's offers, live: new ones slide in for everyone watching; amounts only reach the poster. */
export function OffersList({ taskId, currency, userId, renderActions }: {
  taskId: string;
  currency: string;
  userId: string | null;
  renderActions?: (offer: Offer) => ReactNode;
}) {
  const { data, isPending, isError } = useOffers(taskId, userId);
  const offers = (data ?? []).filter((o) => o.status !== 'withdrawn');

  return (
    <section aria-labelledby="offers-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="offers-heading" className="text-lg font-semibold text-slate-900">
        Offers <span className="text-slate-500">({offers.length})</span>
      </h2>
      {isPending && <Spinner className="mt-4" />}
      {isError && <p className="mt-3 text-sm text-red-700">Offers could not be loaded.</p>}
      {!isPending && !offers.length && <p className="mt-3 text-sm text-slate-600">No offers yet. Be the first to make one.</p>}
      <ul className="mt-4 space-y-3 overflow-x-clip" aria-label="Offers">
        <AnimatePresence initial={false}>
          {offers.map((offer) => (
            <m.li
              key={offer.id}
              layout
              initial={{ opacity: 0, x: 64 }}
              animate={{ opacity: 1, x: 0 }}
              exit={{ opacity: 0, x: -64 }}
              transition={{ type: 'spring', stiffness: 380, damping: 32 }}
              data-offer-id={offer.id}
            >
              <div className={`rounded-xl border p-4 ${offer.tasker.id === userId ? 'border-brand-300 bg-brand-50/40' : 'border-slate-200'}`}>
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <Link to={`/profile/${offer.tasker.id}`} className="flex items-center gap-3">
                    <Avatar src={offer.tasker.avatar_url} initials={initialsOf(offer.tasker.name)} alt="" />
                    <span>
                      <span className="block font-semibold text-slate-900">
                        {offer.tasker.name}
                        {offer.tasker.id === userId && <span className="ml-1 text-xs font-medium text-brand-700">(you)</span>}
                      </span>
                      <span className="flex items-center gap-1 text-xs text-slate-500">
                        <Star aria-hidden className="h-3.5 w-3.5 fill-amber-400 text-amber-400" />
                        {offer.tasker.rating ? offer.tasker.rating.toFixed(1) : 'New tasker'} · {relativeTime(offer.created_at)}
                      </span>
                      <VerifiedBadges verified={offer.tasker.verified} className="mt-1" />
                    </span>
                  </Link>
                  <div className="text-right">
                    {offer.amount_cents !== null && <p className="text-lg font-bold text-slate-900">{formatMoney(offer.amount_cents, currency)}</p>}
                    <p className="text-xs font-medium text-slate-500">{statusText[offer.status] ?? offer.status}</p>
                  </div>
                </div>
                {offer.removed && <p className="mt-3 text-sm italic text-slate-500">{REMOVED_BY_MODERATOR}</p>}
                {offer.message && <p className="mt-3 whitespace-pre-line text-sm text-slate-700">{offer.message}</p>}
                {offer.message !== null && !offer.removed && offer.tasker.id !== userId && (
                  <div className="mt-2 flex justify-end">
                    <ReportAction target={{ type: 'offer', id: offer.id }} />
                  </div>
                )}
                {renderActions && <div className="mt-3 flex flex-wrap justify-end gap-2 empty:hidden">{renderActions(offer)}</div>}
              </div>
            </m.li>
          ))}
        </AnimatePresence>
      </ul>
    </section>
  );
}
