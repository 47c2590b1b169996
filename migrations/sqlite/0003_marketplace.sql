-- Marketplace: tasks, offers, public questions, per-viewer-per-day views,
-- notifications and contact messages. Categories are a fixed list in code
-- (server/src/marketplace/categories.rs), ids 1-16.
-- Conventions (see server/src/db.rs): ids are UUIDv7 blobs, times are epoch
-- milliseconds, money is integer cents, dates are 'YYYY-MM-DD' text.

create table tasks (
    id                 blob primary key,
    poster_id          blob not null references users (id) on delete cascade,
    title              text not null,
    description        text not null,
    -- lower(title || ' ' || description), kept by the store for case-insensitive search
    search_text        text not null,
    category_id        integer not null,
    location           text not null default '',
    budget_cents       integer not null check (budget_cents >= 500),
    currency           text not null default 'aud',
    due_date           text not null,
    status             text not null default 'open' check (status in
                           ('open', 'pending_payment', 'assigned', 'completion_requested', 'completed', 'cancelled')),
    -- offers that are not withdrawn; maintained in the transaction that changes them
    offer_count        integer not null default 0,
    assigned_tasker_id blob references users (id),
    accepted_offer_id  blob,
    created_at         integer not null,
    updated_at         integer not null,
    completed_at       integer,
    cancelled_at       integer
);
-- Browse: open tasks only, one index per sort order (and per filter + sort).
create index tasks_open_newest on tasks (created_at desc, id desc) where status = 'open';
create index tasks_open_budget on tasks (budget_cents, id) where status = 'open';
create index tasks_open_due on tasks (due_date, id) where status = 'open';
create index tasks_open_category_newest on tasks (category_id, created_at desc, id desc) where status = 'open';
create index tasks_open_category_budget on tasks (category_id, budget_cents, id) where status = 'open';
create index tasks_open_category_due on tasks (category_id, due_date, id) where status = 'open';
create index tasks_poster on tasks (poster_id, created_at desc);
create index tasks_assigned_tasker on tasks (assigned_tasker_id, status);

create table offers (
    id           blob primary key,
    task_id      blob not null references tasks (id) on delete cascade,
    tasker_id    blob not null references users (id) on delete cascade,
    amount_cents integer not null check (amount_cents >= 500),
    message      text not null,
    status       text not null default 'pending' check (status in ('pending', 'accepted', 'not_selected', 'withdrawn')),
    created_at   integer not null,
    updated_at   integer not null
);
-- One pending offer per tasker per task: two concurrent offers, one wins.
create unique index offers_one_pending on offers (task_id, tasker_id) where status = 'pending';
create index offers_task on offers (task_id, created_at);
create index offers_tasker on offers (tasker_id, created_at desc);

create table questions (
    id          blob primary key,
    task_id     blob not null references tasks (id) on delete cascade,
    asker_id    blob not null references users (id) on delete cascade,
    body        text not null,
    answer      text,
    answered_at integer,
    created_at  integer not null
);
create index questions_task on questions (task_id, created_at);

-- One row per viewer per task per UTC day; the view count is their number.
create table task_views (
    task_id    blob not null references tasks (id) on delete cascade,
    viewer_key text not null,
    day        integer not null,
    primary key (task_id, viewer_key, day)
);

create table notifications (
    id         blob primary key,
    user_id    blob not null references users (id) on delete cascade,
    type       text not null check (type in ('offer', 'message', 'payment', 'reminder', 'task')),
    title      text not null,
    message    text not null,
    link       text,
    is_read    boolean not null default false,
    created_at integer not null
);
create index notifications_user on notifications (user_id, id desc);
create index notifications_user_unread on notifications (user_id, id desc) where is_read = false;

create table contact_messages (
    id         blob primary key,
    user_id    blob references users (id) on delete set null,
    name       text not null,
    email      text not null,
    subject    text not null,
    message    text not null,
    created_at integer not null
);
