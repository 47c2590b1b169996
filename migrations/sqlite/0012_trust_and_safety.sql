-- no-transaction
-- Trust and safety (issue 23): reports with a snapshot of what was reported,
-- the operators' append-only audit log, suspensions, and content a moderator
-- removed (its text stays for the audit; readers other than operators see
-- that it was removed). A removed task gets status `removed`: SQLite cannot
-- change a CHECK constraint in place, so `tasks` is rebuilt as 0005 rebuilt
-- `payments` (foreign keys off, one transaction, a foreign key check before commit).

pragma foreign_keys = off;
begin;

create table tasks_new (
    id                 blob primary key,
    poster_id          blob not null references users (id) on delete cascade,
    title              text not null,
    description        text not null,
    search_text        text not null,
    category_id        integer not null,
    location           text not null default '',
    budget_cents       integer not null check (budget_cents >= 500),
    currency           text not null default 'aud',
    due_date           text not null,
    status             text not null default 'open' check (status in
                           ('open', 'pending_payment', 'assigned', 'completion_requested', 'completed', 'cancelled',
                            'removed')),
    offer_count        integer not null default 0,
    assigned_tasker_id blob references users (id),
    accepted_offer_id  blob,
    created_at         integer not null,
    updated_at         integer not null,
    completed_at       integer,
    cancelled_at       integer,
    open_dispute_id    blob,
    location_search    text,
    lat                real,
    lon                real,
    remote             boolean not null default false
);
insert into tasks_new (id, poster_id, title, description, search_text, category_id, location, budget_cents, currency,
                       due_date, status, offer_count, assigned_tasker_id, accepted_offer_id, created_at, updated_at,
                       completed_at, cancelled_at, open_dispute_id, location_search, lat, lon, remote)
    select id, poster_id, title, description, search_text, category_id, location, budget_cents, currency,
           due_date, status, offer_count, assigned_tasker_id, accepted_offer_id, created_at, updated_at,
           completed_at, cancelled_at, open_dispute_id, location_search, lat, lon, remote
    from tasks;
drop table tasks;
alter table tasks_new rename to tasks;
create index tasks_open_newest on tasks (created_at desc, id desc) where status = 'open';
create index tasks_open_budget on tasks (budget_cents, id) where status = 'open';
create index tasks_open_due on tasks (due_date, id) where status = 'open';
create index tasks_open_category_newest on tasks (category_id, created_at desc, id desc) where status = 'open';
create index tasks_open_category_budget on tasks (category_id, budget_cents, id) where status = 'open';
create index tasks_open_category_due on tasks (category_id, due_date, id) where status = 'open';
create index tasks_poster on tasks (poster_id, created_at desc);
create index tasks_assigned_tasker on tasks (assigned_tasker_id, status);
create index tasks_open_lat on tasks (lat) where status = 'open' and lat is not null;

-- One row per reporter and target; `snapshot` is the target's text when it was reported.
create table reports (
    id          blob primary key,
    reporter_id blob not null references users (id) on delete cascade,
    target_type text not null check (target_type in ('task', 'user', 'offer', 'question', 'message', 'review')),
    target_id   blob not null,
    -- whose content it is (the user themself for a profile)
    author_id   blob not null references users (id) on delete cascade,
    reason      text not null check (reason in ('spam', 'scam', 'offensive', 'off_platform', 'unsafe', 'other')),
    details     text not null default '',
    snapshot    text not null,
    status      text not null default 'open' check (status in ('open', 'resolved')),
    action      text check (action in ('dismiss', 'remove', 'warn', 'suspend')),
    resolved_by blob references users (id),
    created_at  integer not null,
    resolved_at integer
);
-- A repeat report by the same reporter while the first is open is the first one.
create unique index reports_one_open on reports (reporter_id, target_type, target_id) where status = 'open';
create index reports_target on reports (target_type, target_id, status);
create index reports_queue on reports (status, created_at);
create index reports_author on reports (author_id, status);

-- Every operator action, written in the action's transaction; never updated or deleted.
create table audit_log (
    id          blob primary key,
    operator_id blob not null references users (id),
    action      text not null check (action in
                    ('dismiss', 'remove', 'warn', 'suspend', 'reinstate', 'dispute_decision', 'provider_call_retry')),
    target_type text not null check (target_type in
                    ('task', 'user', 'offer', 'question', 'message', 'review', 'dispute', 'provider_call')),
    target_id   blob not null,
    note        text not null default '',
    created_at  integer not null
);
create index audit_log_target on audit_log (target_type, target_id);
create trigger audit_log_no_update before update on audit_log
    begin select raise(abort, 'audit_log is append-only'); end;
create trigger audit_log_no_delete before delete on audit_log
    begin select raise(abort, 'audit_log is append-only'); end;

-- A suspended account: since when, until when (null: until reinstated), and why.
alter table users add column suspended_at integer;
alter table users add column suspended_until integer;
alter table users add column suspension_reason text;

-- Content a moderator removed.
alter table questions add column removed_at integer;
alter table offers add column message_removed_at integer;
alter table messages add column removed_at integer;
alter table reviews add column removed_at integer;

pragma foreign_key_check;
commit;
pragma foreign_keys = on;
