-- Trust and safety (issue 23): reports with a snapshot of what was reported,
-- the operators' append-only audit log, suspensions, and content a moderator
-- removed (its text stays for the audit; readers other than operators see
-- that it was removed). A removed task gets status `removed`.

alter table tasks drop constraint tasks_status_check;
alter table tasks add constraint tasks_status_check check (status in
    ('open', 'pending_payment', 'assigned', 'completion_requested', 'completed', 'cancelled', 'removed'));

-- One row per reporter and target; `snapshot` is the target's text when it was reported.
create table reports (
    id          uuid primary key,
    reporter_id uuid not null references users (id) on delete cascade,
    target_type text not null check (target_type in ('task', 'user', 'offer', 'question', 'message', 'review')),
    target_id   uuid not null,
    -- whose content it is (the user themself for a profile)
    author_id   uuid not null references users (id) on delete cascade,
    reason      text not null check (reason in ('spam', 'scam', 'offensive', 'off_platform', 'unsafe', 'other')),
    details     text not null default '',
    snapshot    text not null,
    status      text not null default 'open' check (status in ('open', 'resolved')),
    action      text check (action in ('dismiss', 'remove', 'warn', 'suspend')),
    resolved_by uuid references users (id),
    created_at  bigint not null,
    resolved_at bigint
);
-- A repeat report by the same reporter while the first is open is the first one.
create unique index reports_one_open on reports (reporter_id, target_type, target_id) where status = 'open';
create index reports_target on reports (target_type, target_id, status);
create index reports_queue on reports (status, created_at);
create index reports_author on reports (author_id, status);

-- Every operator action, written in the action's transaction; never updated or deleted.
create table audit_log (
    id          uuid primary key,
    operator_id uuid not null references users (id),
    action      text not null check (action in
                    ('dismiss', 'remove', 'warn', 'suspend', 'reinstate', 'dispute_decision', 'provider_call_retry')),
    target_type text not null check (target_type in
                    ('task', 'user', 'offer', 'question', 'message', 'review', 'dispute', 'provider_call')),
    target_id   uuid not null,
    note        text not null default '',
    created_at  bigint not null
);
create index audit_log_target on audit_log (target_type, target_id);
create function audit_log_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'audit_log is append-only';
end;
$$;
create trigger audit_log_no_change before update or delete on audit_log
    for each row execute function audit_log_append_only();

-- A suspended account: since when, until when (null: until reinstated), and why.
alter table users add column suspended_at bigint;
alter table users add column suspended_until bigint;
alter table users add column suspension_reason text;

-- Content a moderator removed.
alter table questions add column removed_at bigint;
alter table offers add column message_removed_at bigint;
alter table messages add column removed_at bigint;
alter table reviews add column removed_at bigint;
