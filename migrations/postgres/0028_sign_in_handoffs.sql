-- A provider sign-in hands its session to the app with a one-time code bound to the browser that
-- signed in (security review 3, login CSRF): the callback page redeems the code with a POST that
-- carries the binding cookie; no bearer token travels in a URL.
create table oidc_handoffs (
    code_hash    text primary key,
    binding_hash text not null,
    user_id      uuid not null references users (id) on delete cascade,
    created_at   bigint not null,
    expires_at   bigint not null,
    used_at      bigint
);
create index oidc_handoffs_expiry on oidc_handoffs (expires_at);
