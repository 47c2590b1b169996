-- Single-use tickets that authenticate a WebSocket connection (30 s), kept in the
-- database so a ticket issued by one node can be redeemed on another.
create table realtime_tickets (
    ticket_hash text primary key,
    user_id     uuid not null references users (id) on delete cascade,
    expires_at  bigint not null
);
create index realtime_tickets_expiry on realtime_tickets (expires_at);
