-- Pictures (issue 24): a tasker's portfolio, photos on tasks and in messages. The images
-- themselves live in the media store (server/src/media), named after the row's id:
-- `portfolio/{id}.jpg`, `tasks/{id}.jpg` (public, unguessable) and `private/messages/{id}.jpg`
-- (served only to the task's two parties), each with a `_thumb.jpg` beside it.

create table portfolio_items (
    id          uuid primary key,
    user_id     uuid not null references users (id) on delete cascade,
    title       text not null,
    description text,
    position    bigint not null,
    created_at  bigint not null,
    updated_at  bigint not null
);
create index portfolio_items_user on portfolio_items (user_id, position);

create table task_photos (
    id         uuid primary key,
    task_id    uuid not null references tasks (id) on delete cascade,
    created_at bigint not null
);
create index task_photos_task on task_photos (task_id, id);

alter table messages add column photo_id uuid;
