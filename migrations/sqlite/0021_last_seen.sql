-- When each user's last open socket closed (issue 26: "last seen" for the other party of their
-- tasks). Online now is ephemeral (each node's count of sockets, in Redis with an expiry); the
-- time a user was last seen outlives the nodes, so it is a row, moved forward only.
create table user_last_seen (
    user_id blob primary key references users (id) on delete cascade,
    seen_at integer not null
);
