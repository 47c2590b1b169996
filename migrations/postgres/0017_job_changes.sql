-- Changes after assignment (issue 25). A price increase is the tasker's
-- proposal, approved and paid by the poster through a checkout of its own;
-- that checkout is a payment row of its own (`purpose = 'increase'`) whose
-- parent is the payment that bought the task, since each charge is refunded
-- and transferred from on its own at the provider. Its ledger rows are its
-- own. Only the task's own payment (`parent_payment_id is null`) is the one
-- kept per task.

alter table payments add column purpose text not null default 'task' check (purpose in ('task', 'increase', 'tip'));
alter table payments add column parent_payment_id uuid references payments (id);
drop index payments_one_kept_per_task;
create unique index payments_one_kept_per_task on payments (task_id)
    where status in ('held', 'released') and parent_payment_id is null;
create index payments_children on payments (parent_payment_id) where parent_payment_id is not null;

create table price_increases (
    id             uuid primary key,
    task_id        uuid not null references tasks (id),
    tasker_id      uuid not null references users (id),
    amount_cents   bigint not null check (amount_cents > 0),
    reason         text not null,
    -- pending: waiting for the poster · approved: its checkout is open (or processing)
    -- paid: in escrow · declined · lapsed: unanswered for 72 h · closed: the task was
    -- released, cancelled or disputed first
    status         text not null default 'pending'
                       check (status in ('pending', 'approved', 'paid', 'declined', 'lapsed', 'closed')),
    -- the checkout of the difference, once approved
    payment_id     uuid references payments (id),
    decline_reason text,
    expires_at     bigint not null,
    created_at     bigint not null,
    answered_at    bigint
);
create index price_increases_task on price_increases (task_id, created_at);
create unique index price_increases_one_open on price_increases (task_id) where status in ('pending', 'approved');
create index price_increases_pending_expiry on price_increases (expires_at) where status = 'pending';

-- Either party of an assigned task proposes a new due date (and time window);
-- the other accepts or declines within 48 h, else it lapses and nothing changes.
create table reschedules (
    id          uuid primary key,
    task_id     uuid not null references tasks (id),
    proposed_by uuid not null references users (id),
    due_date    text not null,
    time_window text,
    note        text,
    status      text not null default 'pending' check (status in ('pending', 'accepted', 'declined', 'lapsed', 'closed')),
    expires_at  bigint not null,
    created_at  bigint not null,
    answered_at bigint
);
create index reschedules_task on reschedules (task_id, created_at);
create unique index reschedules_one_pending on reschedules (task_id) where status = 'pending';
create index reschedules_pending_expiry on reschedules (expires_at) where status = 'pending';

-- Why a task was cancelled, from a fixed list, and whom it is attributed to
-- (the tasker's completion rate counts only cancellations attributed to them).
alter table tasks add column cancellation_reason text;
alter table tasks add column cancellation_attributed_to text check (cancellation_attributed_to in ('poster', 'tasker', 'none'));
alter table cancellation_requests add column reason_code text;
