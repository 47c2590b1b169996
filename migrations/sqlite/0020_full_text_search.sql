-- Browse's search by words (FTS5, the Porter stemmer): "clean" finds "cleaner" and "cleaning".
-- An external-content index over tasks' title and description, kept in sync by triggers in the
-- same transaction as the task row. It follows tasks' rowid: a migration that rebuilds the tasks
-- table (new rowids) must end with `insert into tasks_fts(tasks_fts) values ('rebuild')`.
create virtual table tasks_fts using fts5(
    title, description,
    content = 'tasks', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

insert into tasks_fts(tasks_fts) values ('rebuild');

create trigger tasks_fts_after_insert after insert on tasks begin
    insert into tasks_fts(rowid, title, description) values (new.rowid, new.title, new.description);
end;

create trigger tasks_fts_after_delete after delete on tasks begin
    insert into tasks_fts(tasks_fts, rowid, title, description) values ('delete', old.rowid, old.title, old.description);
end;

create trigger tasks_fts_after_update after update of title, description on tasks begin
    insert into tasks_fts(tasks_fts, rowid, title, description) values ('delete', old.rowid, old.title, old.description);
    insert into tasks_fts(rowid, title, description) values (new.rowid, new.title, new.description);
end;
