-- Read receipts and privacy choices (DESIGN.md decision 18). Viewer counts, online
-- state and typing are ephemeral and never stored; what a party has read is.

-- How far each party of a task has read the other's messages: the newest message
-- (ids are UUIDv7, so ordered by time) up to which they have read.
create table message_reads (
    task_id blob not null references tasks (id) on delete cascade,
    user_id blob not null references users (id) on delete cascade,
    up_to   blob not null references messages (id) on delete cascade,
    read_at integer not null,
    primary key (task_id, user_id)
);

-- Sharing choices that differ from the default (a missing row shares both).
create table privacy_settings (
    user_id             blob primary key references users (id) on delete cascade,
    share_online        boolean not null,
    share_read_receipts boolean not null,
    updated_at          integer not null
);
