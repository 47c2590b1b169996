-- What a session opens ends with it (issue 21). A realtime ticket names the session
-- (refresh-token family) that asked for it, so the server can close that socket when the
-- session ends; a push device belongs to the session that added it and is removed when the
-- session is revoked (sign-out, refresh token reuse, password reset). Rows from before have
-- no session: a reset still removes them with every other device of the user.
alter table realtime_tickets add column session_id uuid;
alter table push_subscriptions add column session_id uuid;
create index push_subscriptions_session on push_subscriptions (session_id);
