-- The few suspended accounts, by id. Every browse read leaves out the open tasks of suspended
-- posters (`not exists` against users); without this index PostgreSQL answered that by reading
-- every user on each read (0.6 ms at 10,000 users, a third of a Best match window's time, and
-- growing with the users), where it now reads an index of the suspended ones only.
create index users_suspended on users (id) where suspended_at is not null;
