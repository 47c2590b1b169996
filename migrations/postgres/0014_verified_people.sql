-- Verified people: phone numbers confirmed by a code sent by SMS, identities confirmed by a
-- provider (Stripe Identity or the local sandbox). Only outcomes and their dates are kept,
-- never a document. Codes are kept (hashed) for a day after sending: the send limits count them.

alter table profiles add column phone_verified_at bigint;
alter table profiles add column identity_verified_at bigint;

create table phone_codes (
    id         uuid primary key,
    user_id    uuid not null references users (id) on delete cascade,
    -- E.164, and the region it belongs to (ISO 3166-1 alpha-2) for the per-country ceiling.
    phone      text not null,
    country    text not null,
    code_hash  text not null,
    created_at bigint not null,
    expires_at bigint not null,
    attempts   integer not null default 0,
    used_at    bigint
);
create index phone_codes_user on phone_codes (user_id, created_at);
create index phone_codes_phone on phone_codes (phone, created_at);
create index phone_codes_country on phone_codes (country, created_at);

create table identity_sessions (
    id           uuid primary key,
    user_id      uuid not null references users (id) on delete cascade,
    provider     text not null check (provider in ('sandbox', 'stripe')),
    provider_ref text not null unique,
    status       text not null check (status in ('pending', 'verified', 'failed')),
    created_at   bigint not null,
    decided_at   bigint
);
create index identity_sessions_user on identity_sessions (user_id, created_at);
