-- An operator who may not act (they are part of the case) leaves a row too: what they tried,
-- marked refused (security review 3: no one judges their own case).
alter table audit_log add column refused boolean not null default false;
