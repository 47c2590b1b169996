-- Task alerts (saved searches of taskers) and task coordinates.
-- A task's place: coordinates picked from a suggestion or resolved from its
-- location text (null when unknown); remote tasks have no place.
alter table tasks add column lat double precision;
alter table tasks add column lon double precision;
alter table tasks add column remote boolean not null default false;
-- Browse "within N km": a latitude range first, then the exact distance in Rust.
create index tasks_open_lat on tasks (lat) where status = 'open' and lat is not null;

create table task_alerts (
    id               uuid primary key,
    user_id          uuid not null references users (id) on delete cascade,
    name             text not null,
    -- keywords as typed; a task matches when its title or description contains any comma-separated phrase
    q                text not null default '',
    -- category ids as a JSON array; empty means any category
    categories       text not null default '[]',
    place_label      text,
    lat              double precision,
    lon              double precision,
    radius_km        bigint,
    remote_ok        boolean not null default false,
    min_budget_cents bigint,
    paused           boolean not null default false,
    created_at       bigint not null,
    updated_at       bigint not null
);
create index task_alerts_user on task_alerts (user_id, created_at);

-- How matching finds candidates without reading every alert: one row per
-- (category, grid cell) an alert covers. category_id 0 = any category;
-- cell = geo::cell_of for each cell the alert's circle overlaps, -1 = any place, -2 = remote tasks.
create table task_alert_keys (
    category_id bigint not null,
    cell        bigint not null,
    alert_id    uuid not null references task_alerts (id) on delete cascade,
    primary key (category_id, cell, alert_id)
);
create index task_alert_keys_alert on task_alert_keys (alert_id);

-- The outbox of matching: written in the transaction that posts the task,
-- deleted in the transaction that writes its task_alert notifications.
create table task_alert_jobs (
    task_id    uuid primary key references tasks (id) on delete cascade,
    created_at bigint not null
);

-- Which alert matched which task, for "N tasks matched this week".
create table task_alert_matches (
    alert_id   uuid not null references task_alerts (id) on delete cascade,
    task_id    uuid not null references tasks (id) on delete cascade,
    matched_at bigint not null,
    primary key (alert_id, task_id)
);
create index task_alert_matches_recent on task_alert_matches (alert_id, matched_at);
create index task_alert_matches_task on task_alert_matches (task_id);
