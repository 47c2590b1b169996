-- no-transaction
-- Escrow hardening: payments that settle later (`processing`) or fail after
-- checkout (`failed`), partial refunds, a durable outbox of the provider
-- calls owed after a commit (transfers and refunds, retried with backoff and
-- parked after too many attempts), pending checkouts re-checked on a backoff
-- schedule, offers frozen while a checkout of them is open, cancellation
-- requests closed when the task moves on, and disputes.
-- SQLite cannot change a CHECK constraint in place, so `payments`,
-- `cancellation_requests` and `notifications` are rebuilt (https://sqlite.org/lang_altertable.html,
-- "other kinds of table schema changes"): foreign keys off, one transaction,
-- a foreign key check before commit.

pragma foreign_keys = off;
begin;

create table payments_new (
    id               blob primary key,
    task_id          blob not null references tasks (id),
    offer_id         blob not null references offers (id),
    poster_id        blob not null references users (id),
    tasker_id        blob not null references users (id),
    provider         text not null check (provider in ('sandbox', 'stripe')),
    session_id       text not null unique,
    checkout_url     text not null,
    amount_cents     integer not null check (amount_cents > 0),
    fee_cents        integer not null check (fee_cents >= 0 and fee_cents <= amount_cents),
    currency         text not null,
    -- pending: checkout open · processing: paid by a method that settles later · held: charged, in escrow
    -- released: paid out · refunded · expired: never charged · failed: a processing payment that did not settle
    status           text not null default 'pending'
                         check (status in ('pending', 'processing', 'held', 'released', 'refunded', 'expired', 'failed')),
    charge_ref       text,
    payment_intent   text,
    transfer_ref     text,
    refund_ref       text,
    refund_reason    text,
    completion_requested_at integer,
    expires_at       integer not null,
    created_at       integer not null,
    updated_at       integer not null,
    held_at          integer,
    released_at      integer,
    refunded_at      integer,
    -- money returned to the poster: the whole amount on a refund, part of it when a dispute splits it
    refunded_cents   integer not null default 0,
    -- when the sweep next asks the provider about a pending or processing checkout, and how often it failed to
    next_check_at    integer,
    check_attempts   integer not null default 0
);
insert into payments_new (id, task_id, offer_id, poster_id, tasker_id, provider, session_id, checkout_url,
                          amount_cents, fee_cents, currency, status, charge_ref, payment_intent, transfer_ref,
                          refund_ref, refund_reason, completion_requested_at, expires_at, created_at, updated_at,
                          held_at, released_at, refunded_at, refunded_cents, next_check_at)
select id, task_id, offer_id, poster_id, tasker_id, provider, session_id, checkout_url,
       amount_cents, fee_cents, currency, status, charge_ref, payment_intent, transfer_ref,
       refund_ref, refund_reason, completion_requested_at, expires_at, created_at, updated_at,
       held_at, released_at, refunded_at,
       case when status = 'refunded' then amount_cents else 0 end,
       case when status = 'pending' then expires_at end
from payments;
drop table payments;
alter table payments_new rename to payments;
create index payments_task on payments (task_id, created_at);
create index payments_due_check on payments (next_check_at) where status in ('pending', 'processing');
create index payments_held on payments (held_at) where status = 'held';
create unique index payments_one_kept_per_task on payments (task_id) where status in ('held', 'released');

create table cancellation_requests_new (
    id           blob primary key,
    task_id      blob not null references tasks (id) on delete cascade,
    requested_by blob not null references users (id),
    reason       text not null,
    -- closed: the task was completed or cancelled another way before anyone answered
    status       text not null default 'pending' check (status in ('pending', 'accepted', 'declined', 'lapsed', 'closed')),
    created_at   integer not null,
    answered_at  integer
);
insert into cancellation_requests_new select id, task_id, requested_by, reason, status, created_at, answered_at
from cancellation_requests;
drop table cancellation_requests;
alter table cancellation_requests_new rename to cancellation_requests;
create unique index cancellation_requests_one_pending on cancellation_requests (task_id) where status = 'pending';
create index cancellation_requests_pending_age on cancellation_requests (created_at) where status = 'pending';

-- An offer is frozen while a checkout of it is open: its tasker can neither
-- change its amount nor withdraw it under the poster's payment.
alter table offers add column frozen_at integer;

-- Provider calls owed after a commit, written in the same transaction as the
-- transition that owes them. At most one of each kind per payment.
create table provider_calls (
    id              blob primary key,
    payment_id      blob not null references payments (id),
    kind            text not null check (kind in ('transfer', 'refund')),
    -- the provider that holds the payment's charge (not necessarily today's)
    provider        text not null check (provider in ('sandbox', 'stripe')),
    amount_cents    integer not null check (amount_cents > 0),
    -- pending: owed · done: made · parked: gave up after too many attempts, an operator must look
    status          text not null default 'pending' check (status in ('pending', 'done', 'parked')),
    attempts        integer not null default 0,
    next_attempt_at integer not null,
    last_error      text,
    provider_ref    text,
    created_at      integer not null,
    updated_at      integer not null,
    unique (payment_id, kind)
);
create index provider_calls_due on provider_calls (next_attempt_at) where status = 'pending';
-- Calls owed before this migration (they were found by scanning payments).
insert into provider_calls (id, payment_id, kind, provider, amount_cents, status, next_attempt_at, created_at, updated_at)
select randomblob(16), id, 'transfer', provider, amount_cents - fee_cents, 'pending', updated_at, updated_at, updated_at
from payments where status = 'released' and transfer_ref is null and amount_cents > fee_cents;
insert into provider_calls (id, payment_id, kind, provider, amount_cents, status, next_attempt_at, created_at, updated_at)
select randomblob(16), id, 'refund', provider, amount_cents, 'pending', updated_at, updated_at, updated_at
from payments where status = 'refunded' and refund_ref is null;

-- A poster's dispute of an assigned task: it stops auto-release and the
-- cancellation lapse until an operator decides (or the poster releases).
create table disputes (
    id              blob primary key,
    task_id         blob not null references tasks (id),
    payment_id      blob not null references payments (id),
    opened_by       blob not null references users (id),
    reason          text not null check (reason in ('not_completed', 'poor_quality', 'no_show', 'other')),
    message         text not null,
    status          text not null default 'open' check (status in ('open', 'resolved')),
    outcome         text check (outcome in ('release', 'partial_refund', 'refund')),
    refund_cents    integer,
    resolution_note text,
    -- the operator who decided; null when the poster released
    resolved_by     blob references users (id),
    created_at      integer not null,
    resolved_at     integer
);
create unique index disputes_one_open on disputes (task_id) where status = 'open';
create index disputes_queue on disputes (status, created_at);
-- The task's open dispute, on the task row itself so that every transition of
-- the task sees it under the task's row lock.
alter table tasks add column open_dispute_id blob;

-- Notifications gain the kinds of disputes and task alerts (API.md).
create table notifications_new (
    id         blob primary key,
    user_id    blob not null references users (id) on delete cascade,
    type       text not null check (type in ('offer', 'message', 'payment', 'reminder', 'task', 'task_alert', 'dispute')),
    title      text not null,
    message    text not null,
    link       text,
    is_read    boolean not null default false,
    created_at integer not null
);
insert into notifications_new select id, user_id, type, title, message, link, is_read, created_at from notifications;
drop table notifications;
alter table notifications_new rename to notifications;
create index notifications_user on notifications (user_id, id desc);
create index notifications_user_unread on notifications (user_id, id desc) where is_read = false;

-- The sandbox's bank debits: a session paid by direct debit completes at once
-- but settles (or fails) at `settles_at`, as BECS Direct Debit does at Stripe.
alter table sandbox_sessions add column settles_at integer;
alter table sandbox_sessions add column debit_fails boolean not null default false;

pragma foreign_key_check;
commit;
pragma foreign_keys = on;
