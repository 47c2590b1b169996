import type { Dispute } from '@/features/disputes/api/get-dispute';
import { formatMoney, serviceFeeCents } from '@/lib/marketplace';

export type OutcomeContext = {
  /** What the poster paid, when known. */
  amountCents?: number | null;
  currency: string;
  posterName: string;
  taskerName: string;
  viewer: 'poster' | 'tasker' | 'operator';
};

/** Ends a sentence without doubling the full stop of an abbreviated name ("Tom T."). */
const stop = (text: string) => (text.endsWith('.') ? text : `${text}.`);

/** A resolved dispute in words: a short headline with the refunded amount, and who got what. */
export function describeOutcome(dispute: Pick<Dispute, 'outcome' | 'refund_cents'>, ctx: OutcomeContext): { headline: string; detail: string } {
  const money = (cents: number) => formatMoney(cents, ctx.currency, true);
  const poster = ctx.viewer === 'poster' ? 'you' : ctx.posterName;
  const tasker = ctx.viewer === 'tasker' ? 'you' : ctx.taskerName;
  const amount = ctx.amountCents ?? null;
  switch (dispute.outcome) {
    case 'release': {
      const paid = amount === null ? 'The payment' : `The payment of ${money(amount)}`;
      const payout = amount !== null && ctx.viewer === 'tasker' ? ` You receive ${money(amount - serviceFeeCents(amount))} after the 10% service fee.` : '';
      return { headline: 'Released to the tasker', detail: stop(`${paid} was released to ${tasker}`) + payout };
    }
    case 'partial_refund': {
      const refund = dispute.refund_cents ?? 0;
      const rest = amount === null ? null : amount - refund;
      let detail = `${money(refund)} was refunded to ${poster}`;
      if (rest !== null) {
        detail += ` and the rest, ${money(rest)}, was released to ${tasker}`;
        if (ctx.viewer !== 'poster') detail += ` (${money(rest - serviceFeeCents(rest))} after the 10% service fee)`;
      } else {
        detail += ' and the rest was released to ' + tasker;
      }
      return { headline: `Partly refunded ${money(refund)}`, detail: stop(detail) };
    }
    case 'refund': {
      const whole = amount === null ? 'The whole payment' : `The whole payment of ${money(amount)}`;
      return {
        headline: amount === null ? 'Fully refunded' : `Fully refunded ${money(amount)}`,
        detail: `${whole} was refunded to ${poster} and the task is cancelled.`,
      };
    }
    default:
      return { headline: 'Resolved', detail: 'An operator has resolved this dispute.' };
  }
}
