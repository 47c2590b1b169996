-- What a session opens ends with it (issue 21). A realtime ticket names the session
-- (refresh-token family) that asked for it, so the server can close that socket when the
-- session ends (sign-out, refresh token reuse, password reset).
alter table realtime_tickets add column session_id blob;
