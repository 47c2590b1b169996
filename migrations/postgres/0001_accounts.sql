-- Accounts: users, their profiles, refresh-token families and one-time email tokens.
-- Conventions (see server/src/db.rs): ids are UUIDv7, times are epoch milliseconds.

create table users (
    id             uuid primary key,
    email          text not null unique,
    password_hash  text not null,
    email_verified boolean not null default false,
    created_at     bigint not null
);

create table profiles (
    id           uuid primary key references users (id) on delete cascade,
    first_name   text not null,
    last_name    text not null,
    display_name text,
    company_name text,
    phone        text,
    location     text,
    bio          text,
    avatar_url   text,
    account_type text not null check (account_type in ('customer', 'tasker')),
    is_tasker    boolean not null default false,
    skills       text not null default '[]',
    updated_at   bigint not null
);

create table refresh_tokens (
    id         uuid primary key,
    user_id    uuid not null references users (id) on delete cascade,
    family_id  uuid not null,
    token_hash text not null unique,
    created_at bigint not null,
    expires_at bigint not null,
    used_at    bigint,
    revoked_at bigint
);
create index refresh_tokens_family on refresh_tokens (family_id);
create index refresh_tokens_user on refresh_tokens (user_id);

create table email_tokens (
    token_hash text primary key,
    user_id    uuid not null references users (id) on delete cascade,
    purpose    text not null check (purpose in ('verify_email', 'reset_password')),
    created_at bigint not null,
    expires_at bigint not null,
    used_at    bigint
);
create index email_tokens_user on email_tokens (user_id, purpose);
