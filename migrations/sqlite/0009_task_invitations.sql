-- A poster inviting a tasker to one of their open tasks (a notification with
-- the task's link). One invitation per task and tasker: inviting twice is a 409.
create table task_invitations (
    task_id    blob not null references tasks (id) on delete cascade,
    tasker_id  blob not null references users (id) on delete cascade,
    invited_by blob not null references users (id) on delete cascade,
    created_at integer not null,
    primary key (task_id, tasker_id)
);
create index task_invitations_tasker on task_invitations (tasker_id, created_at);
