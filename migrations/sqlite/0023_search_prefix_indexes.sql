-- Browse's search reads each word as a prefix ("plumb" finds "plumbing"). Without a prefix index
-- FTS5 answers a prefix by merging the lists of every word that starts with it into one, in
-- memory, before it returns a first match: at a million tasks a common word's merge was most of
-- a search's time, even for a page of twenty. With an index of the prefixes of one to eight
-- letters (after stemming), such a search reads one list, newest first, and stops at its page.
-- Longer prefixes merge as before (few words share them). The index about doubles in size.
drop table tasks_fts;
create virtual table tasks_fts using fts5(
    title, description,
    content = 'tasks', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2',
    prefix = '1 2 3 4 5 6 7 8'
);

insert into tasks_fts(tasks_fts) values ('rebuild');
