-- Social sign-in (issue 24, part C): identities from Google, Facebook, Apple (and the dev
-- sandbox provider) linked to accounts; sign-ins on their way through a provider (the `state`,
-- `nonce` and PKCE verifier, single use, minutes long); and a new person's verified identity
-- waiting for them to choose customer or tasker. An account made through a provider has no
-- password until it sets one through a reset link (`password_set`).

alter table users add column password_set boolean not null default true;

create table user_identities (
    provider   text not null check (provider in ('google', 'facebook', 'apple', 'sandbox')),
    subject    text not null,
    user_id    uuid not null references users (id) on delete cascade,
    email      text,
    created_at bigint not null,
    primary key (provider, subject)
);
-- One identity per provider and account.
create unique index user_identities_user on user_identities (user_id, provider);

create table oidc_logins (
    state_hash    text primary key,
    provider      text not null,
    nonce         text not null,
    pkce_verifier text not null,
    redirect_path text not null,
    created_at    bigint not null,
    expires_at    bigint not null
);
create index oidc_logins_expiry on oidc_logins (expires_at);

create table oidc_signups (
    token_hash     text primary key,
    provider       text not null,
    subject        text not null,
    email          text not null,
    email_verified boolean not null,
    first_name     text not null,
    last_name      text not null,
    redirect_path  text not null,
    created_at     bigint not null,
    expires_at     bigint not null,
    used_at        bigint
);
create index oidc_signups_expiry on oidc_signups (expires_at);
