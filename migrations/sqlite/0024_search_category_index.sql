-- Best match in a category (server/src/store/search.rs, `in_category`): each open task's
-- category in rowid order, the order of the full-text index, so the window's category members
-- are read as one range without visiting a task. SQLite keeps the rowid at the end of every
-- index entry, so one column is enough for `category_id = ? and rowid >= ?`.
create index tasks_open_category_rowid on tasks (category_id) where status = 'open';
