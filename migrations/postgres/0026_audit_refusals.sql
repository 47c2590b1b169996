-- An operator who may not act (they are part of the case) leaves a row too: what they tried,
-- marked refused (security review 3: no one judges their own case).
alter table audit_log add column refused boolean not null default false;

-- The row triggers stop updates and deletes; TRUNCATE fires no row trigger, so the log could be
-- emptied by the role that owns it. A statement trigger stops that too.
create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_append_only();
