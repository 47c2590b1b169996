-- Payments and the task lifecycle after an offer is accepted: one row per
-- checkout attempt, an append-only ledger of every money movement, Stripe
-- webhook deliveries already handled, the sandbox provider's hosted checkout
-- sessions, taskers' payout accounts, cancellation requests, private messages
-- and reviews. Money records never cascade: a task or user with payments
-- cannot be deleted out from under its ledger.
-- Conventions (see server/src/db.rs): ids are UUIDv7, times are epoch
-- milliseconds, money is integer cents.

create table payments (
    id               uuid primary key,
    task_id          uuid not null references tasks (id),
    offer_id         uuid not null references offers (id),
    poster_id        uuid not null references users (id),
    tasker_id        uuid not null references users (id),
    provider         text not null check (provider in ('sandbox', 'stripe')),
    -- the provider's checkout session (Stripe `cs_…`, sandbox `cs_sandbox_…`)
    session_id       text not null unique,
    checkout_url     text not null,
    amount_cents     bigint not null check (amount_cents > 0),
    fee_cents        bigint not null check (fee_cents >= 0 and fee_cents <= amount_cents),
    currency         text not null,
    -- pending: checkout open · held: charged, in escrow · released: paid out · refunded · expired: never charged
    status           text not null default 'pending' check (status in ('pending', 'held', 'released', 'refunded', 'expired')),
    -- the provider's charge (Stripe `ch_…`), set when the payment is confirmed
    charge_ref       text,
    payment_intent   text,
    transfer_ref     text,
    refund_ref       text,
    refund_reason    text,
    -- when the tasker asked to be paid; auto-release counts from here
    completion_requested_at bigint,
    expires_at       bigint not null,
    created_at       bigint not null,
    updated_at       bigint not null,
    held_at          bigint,
    released_at      bigint,
    refunded_at      bigint
);
create index payments_task on payments (task_id, created_at);
create index payments_pending_expiry on payments (expires_at) where status = 'pending';
create index payments_held on payments (held_at) where status = 'held';
-- At most one charge per task stays in escrow or is paid out; a second one is refunded.
create unique index payments_one_kept_per_task on payments (task_id) where status in ('held', 'released');

-- Every money movement, never updated. `escrow_delta_cents` is the movement's
-- effect on the platform's escrow: + for a charge, − for a payout, fee or refund.
-- Invariant: sum(escrow_delta_cents) = sum(amount_cents) of payments that are held.
create table ledger_entries (
    id                 uuid primary key,
    payment_id         uuid not null references payments (id),
    task_id            uuid not null references tasks (id),
    kind               text not null check (kind in ('charge', 'payout', 'fee', 'refund')),
    amount_cents       bigint not null check (amount_cents >= 0),
    escrow_delta_cents bigint not null,
    currency           text not null,
    -- who paid (charge) or received (payout, refund); null for the platform's fee
    user_id            uuid references users (id),
    provider_ref       text,
    created_at         bigint not null,
    -- one entry of each kind per payment: a retried transition cannot move money twice
    unique (payment_id, kind)
);
create index ledger_entries_task on ledger_entries (task_id, created_at);

-- Stripe webhook events already handled (deduplication by event id).
create table stripe_events (
    id          text primary key,
    type        text not null,
    received_at bigint not null
);

-- Connect Express accounts of taskers (Stripe provider only).
create table payout_accounts (
    user_id     uuid primary key references users (id) on delete cascade,
    provider    text not null,
    account_ref text not null unique,
    ready       boolean not null default false,
    created_at  bigint not null,
    updated_at  bigint not null
);

-- The sandbox provider's hosted checkout sessions (what Stripe keeps on its side).
create table sandbox_sessions (
    id           text primary key,
    description  text not null,
    amount_cents bigint not null,
    fee_cents    bigint not null,
    currency     text not null,
    success_url  text not null,
    cancel_url   text not null,
    metadata     text not null default '{}',
    status       text not null default 'open' check (status in ('open', 'complete', 'expired')),
    charge_ref   text,
    created_at   bigint not null,
    expires_at   bigint not null,
    completed_at bigint
);

-- After assignment either party may ask to cancel; the other accepts or declines,
-- silence for 48 h counts as accepting. Cancelling after payment refunds it.
create table cancellation_requests (
    id           uuid primary key,
    task_id      uuid not null references tasks (id) on delete cascade,
    requested_by uuid not null references users (id),
    reason       text not null,
    status       text not null default 'pending' check (status in ('pending', 'accepted', 'declined', 'lapsed')),
    created_at   bigint not null,
    answered_at  bigint
);
create unique index cancellation_requests_one_pending on cancellation_requests (task_id) where status = 'pending';
create index cancellation_requests_pending_age on cancellation_requests (created_at) where status = 'pending';

-- Private messages between a task's poster and its assigned tasker.
create table messages (
    id           uuid primary key,
    task_id      uuid not null references tasks (id) on delete cascade,
    sender_id    uuid not null references users (id) on delete cascade,
    recipient_id uuid not null references users (id) on delete cascade,
    body         text not null,
    created_at   bigint not null
);
create index messages_task on messages (task_id, id);

-- Reviews both ways after completion, hidden until both are in or 14 days pass.
create table reviews (
    id          uuid primary key,
    task_id     uuid not null references tasks (id) on delete cascade,
    reviewer_id uuid not null references users (id) on delete cascade,
    reviewee_id uuid not null references users (id) on delete cascade,
    rating      bigint not null check (rating between 1 and 5),
    body        text not null,
    created_at  bigint not null,
    unique (task_id, reviewer_id)
);
create index reviews_reviewee on reviews (reviewee_id, created_at desc);
