/** Shapes of the marketplace API (`web/openapi.json`) shared by the task, offer, payment and notification features. */
import type { OfferStatus, PaymentStatus, TaskStatus } from '@/lib/states';

export type Person = {
  id: string;
  name: string;
  avatar_url: string | null;
  rating: number | null;
  /** What Taskhub has checked: shown as ID-verified and mobile-verified badges. */
  verified?: { identity: boolean; phone: boolean };
};

export type TaskSummary = {
  id: string;
  title: string;
  description: string;
  budget_cents: number;
  currency: string;
  location: string;
  due_date: string | null;
  category_id: number;
  category: string;
  category_icon?: string;
  status: TaskStatus;
  created_at: string;
  offer_count: number;
  poster: Person;
  /** Lists carry the first photo only; the task itself all of them, oldest first. */
  photos?: TaskPhoto[];
};

/** A task photo: public by its unguessable URL, metadata stripped on upload. */
export type TaskPhoto = { id: string; url: string; thumb_url: string };

/** The most photos a task carries (`POST /api/tasks/{id}/photos` answers 422 past it). */
export const MAX_TASK_PHOTOS = 6;

export type Question = {
  id: string;
  task_id: string;
  asker: Person;
  /** Null once a moderator removed the question (and its answer). */
  body: string | null;
  answer: string | null;
  removed?: boolean;
  answered_at: string | null;
  created_at: string;
};

export type TaskDetail = TaskSummary & {
  view_count: number;
  assigned_tasker: Person | null;
  poster_stats?: { rating: number | null; review_count: number; tasks_completed: number; member_since: string | null };
  /** The first page of questions; `questions_has_more` says whether the API holds more. */
  questions: Question[];
  questions_next_cursor?: string | null;
  questions_has_more?: boolean;
  similar_tasks?: TaskSummary[];
  updated_at?: string;
  payment_status?: PaymentStatus | null;
  accepted_offer?: { id: string; amount_cents: number } | null;
};

export type Offer = {
  id: string;
  task_id: string;
  tasker: Person;
  amount_cents: number | null;
  message: string | null;
  /** The message was removed by a moderator. */
  removed?: boolean;
  status: OfferStatus;
  created_at: string;
};

/** What readers see in place of content a moderator removed. */
export const REMOVED_BY_MODERATOR = 'Removed by a moderator';

export type TasksPage = { items: TaskSummary[]; next_cursor: string | null };

/** A keyset page of a task's offers or questions (`?cursor=&limit=`). */
export type Page<T> = { items: T[]; next_cursor: string | null; has_more: boolean };

/** Money is integer cents; shown as dollars (no cents when whole, unless `exact`). */
export function formatMoney(cents: number | null | undefined, currency = 'aud', exact = false): string {
  if (cents === null || cents === undefined) return '';
  const whole = cents % 100 === 0 && !exact;
  return new Intl.NumberFormat('en-AU', {
    style: 'currency',
    currency: currency.toUpperCase(),
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}

/** Spec §9: a 10% service fee, shown separately, deducted from the tasker's payout. */
export const SERVICE_FEE_RATE = 0.1;
export function serviceFeeCents(amountCents: number) {
  return Math.round(amountCents * SERVICE_FEE_RATE);
}

/** Statuses: open, pending_payment, assigned, completion_requested, completed, cancelled.
 * The detail page shows 'Open' for open and 'Assigned' for anything else (spec §4), refined with lifecycle states. */
export function statusLabel(status: TaskStatus): string {
  switch (status) {
    case 'open':
      return 'Open';
    case 'pending_payment':
      return 'Awaiting payment';
    case 'cancelled':
      return 'Cancelled';
    case 'completed':
      return 'Completed';
    default:
      return 'Assigned';
  }
}

export function relativeTime(iso: string, now = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 30) return `${days} day${days === 1 ? '' : 's'} ago`;
  return new Date(then).toLocaleDateString('en-AU', { day: 'numeric', month: 'short', year: 'numeric' });
}

export function initialsOf(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return 'U';
  return (parts[0][0] + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase();
}

/** The poster may (re)start checkout while the task is open or its checkout was abandoned. */
export function acceptsOffers(status: TaskStatus) {
  return status === 'open' || status === 'pending_payment';
}

/** After payment: the poster and the assigned tasker work through these. */
export function isUnderway(status: TaskStatus) {
  return status === 'assigned' || status === 'completion_requested' || status === 'completed';
}
