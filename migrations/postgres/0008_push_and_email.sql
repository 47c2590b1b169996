-- Reaching people off the page (DESIGN.md decision 10): Web Push devices,
-- per-kind channel choices, and the delivery outbox written in the same
-- transaction as each notification.

-- One row per device: a browser's push subscription (its endpoint is unique).
create table push_subscriptions (
    id              uuid primary key,
    user_id         uuid not null references users (id) on delete cascade,
    endpoint        text not null unique,
    p256dh          text not null,
    auth            text not null,
    label           text,
    created_at      bigint not null,
    last_success_at bigint
);
create index push_subscriptions_user on push_subscriptions (user_id);

-- Channel choices that differ from the defaults (a missing row means the default).
create table notification_preferences (
    user_id uuid not null references users (id) on delete cascade,
    channel text not null check (channel in ('push', 'email')),
    kind    text not null,
    enabled boolean not null,
    primary key (user_id, channel, kind)
);

-- One push owed per notification and device. claimed_until is the lease of
-- the node sending it (claimed_by, a fresh id per claim): past it, another
-- node may take the row over.
-- pending: owed · sent · parked: refused for good or too many attempts
create table push_deliveries (
    notification_id uuid not null references notifications (id) on delete cascade,
    subscription_id uuid not null references push_subscriptions (id) on delete cascade,
    status          text not null default 'pending' check (status in ('pending', 'sent', 'parked')),
    attempts        integer not null default 0,
    next_attempt_at bigint not null,
    claimed_by      uuid,
    claimed_until   bigint,
    last_error      text,
    created_at      bigint not null,
    updated_at      bigint not null,
    primary key (notification_id, subscription_id)
);
create index push_deliveries_due on push_deliveries (next_attempt_at) where status = 'pending';

-- One email line owed per notification; lines are mailed together per user,
-- EMAIL_DELAY after created_at and only while the notification is unread.
-- pending: owed · sent · skipped: read (or turned off) before it was due · parked
create table email_deliveries (
    notification_id uuid primary key references notifications (id) on delete cascade,
    user_id         uuid not null references users (id) on delete cascade,
    status          text not null default 'pending' check (status in ('pending', 'sent', 'skipped', 'parked')),
    attempts        integer not null default 0,
    next_attempt_at bigint not null,
    last_error      text,
    created_at      bigint not null,
    updated_at      bigint not null
);
create index email_deliveries_due on email_deliveries (user_id, next_attempt_at) where status = 'pending';

-- Per user: when the last digest went out (at most one an hour), and the lease
-- of the node composing the next one.
create table email_digests (
    user_id       uuid primary key references users (id) on delete cascade,
    last_sent_at  bigint,
    claimed_until bigint
);
