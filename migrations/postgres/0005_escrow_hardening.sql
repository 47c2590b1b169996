-- Escrow hardening: payments that settle later (`processing`) or fail after
-- checkout (`failed`), partial refunds, a durable outbox of the provider
-- calls owed after a commit (transfers and refunds, retried with backoff and
-- parked after too many attempts), pending checkouts re-checked on a backoff
-- schedule, offers frozen while a checkout of them is open, cancellation
-- requests closed when the task moves on, and disputes.

alter table payments drop constraint payments_status_check;
alter table payments add constraint payments_status_check
    check (status in ('pending', 'processing', 'held', 'released', 'refunded', 'expired', 'failed'));
-- money returned to the poster: the whole amount on a refund, part of it when a dispute splits it
alter table payments add column refunded_cents bigint not null default 0;
-- when the sweep next asks the provider about a pending or processing checkout, and how often it failed to
alter table payments add column next_check_at bigint;
alter table payments add column check_attempts integer not null default 0;
update payments set next_check_at = expires_at where status = 'pending';
drop index payments_pending_expiry;
create index payments_due_check on payments (next_check_at) where status in ('pending', 'processing');

-- An offer is frozen while a checkout of it is open: its tasker can neither
-- change its amount nor withdraw it under the poster's payment.
alter table offers add column frozen_at bigint;

-- Provider calls owed after a commit, written in the same transaction as the
-- transition that owes them. At most one of each kind per payment.
create table provider_calls (
    id              uuid primary key,
    payment_id      uuid not null references payments (id),
    kind            text not null check (kind in ('transfer', 'refund')),
    -- the provider that holds the payment's charge (not necessarily today's)
    provider        text not null check (provider in ('sandbox', 'stripe')),
    amount_cents    bigint not null check (amount_cents > 0),
    -- pending: owed · done: made · parked: gave up after too many attempts, an operator must look
    status          text not null default 'pending' check (status in ('pending', 'done', 'parked')),
    attempts        integer not null default 0,
    next_attempt_at bigint not null,
    last_error      text,
    provider_ref    text,
    created_at      bigint not null,
    updated_at      bigint not null,
    unique (payment_id, kind)
);
create index provider_calls_due on provider_calls (next_attempt_at) where status = 'pending';
-- Calls owed before this migration (they were found by scanning payments).
insert into provider_calls (id, payment_id, kind, provider, amount_cents, status, next_attempt_at, created_at, updated_at)
select gen_random_uuid(), id, 'transfer', provider, amount_cents - fee_cents, 'pending', updated_at, updated_at, updated_at
from payments where status = 'released' and transfer_ref is null and amount_cents > fee_cents;
insert into provider_calls (id, payment_id, kind, provider, amount_cents, status, next_attempt_at, created_at, updated_at)
select gen_random_uuid(), id, 'refund', provider, amount_cents, 'pending', updated_at, updated_at, updated_at
from payments where status = 'refunded' and refund_ref is null;
update payments set refunded_cents = amount_cents where status = 'refunded';

alter table cancellation_requests drop constraint cancellation_requests_status_check;
-- closed: the task was completed or cancelled another way before anyone answered
alter table cancellation_requests add constraint cancellation_requests_status_check
    check (status in ('pending', 'accepted', 'declined', 'lapsed', 'closed'));

-- A poster's dispute of an assigned task: it stops auto-release and the
-- cancellation lapse until an operator decides (or the poster releases).
create table disputes (
    id              uuid primary key,
    task_id         uuid not null references tasks (id),
    payment_id      uuid not null references payments (id),
    opened_by       uuid not null references users (id),
    reason          text not null check (reason in ('not_completed', 'poor_quality', 'no_show', 'other')),
    message         text not null,
    status          text not null default 'open' check (status in ('open', 'resolved')),
    outcome         text check (outcome in ('release', 'partial_refund', 'refund')),
    refund_cents    bigint,
    resolution_note text,
    -- the operator who decided; null when the poster released
    resolved_by     uuid references users (id),
    created_at      bigint not null,
    resolved_at     bigint
);
create unique index disputes_one_open on disputes (task_id) where status = 'open';
create index disputes_queue on disputes (status, created_at);
-- The task's open dispute, on the task row itself so that every transition of
-- the task sees it under the task's row lock.
alter table tasks add column open_dispute_id uuid;

-- Notifications gain the kinds of disputes and task alerts (API.md).
alter table notifications drop constraint notifications_type_check;
alter table notifications add constraint notifications_type_check
    check (type in ('offer', 'message', 'payment', 'reminder', 'task', 'task_alert', 'dispute'));

-- The sandbox's bank debits: a session paid by direct debit completes at once
-- but settles (or fails) at `settles_at`, as BECS Direct Debit does at Stripe.
alter table sandbox_sessions add column settles_at bigint;
alter table sandbox_sessions add column debit_fails boolean not null default false;
