-- Browse's search by words (the English stemmer): "clean" finds "cleaner" and "cleaning".
-- A generated tsvector (title weighted above description), so it changes in the same statement
-- as the task row, and a GIN index over the open tasks' vectors.
alter table tasks add column search_vector tsvector generated always as (
    setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', description), 'B')
) stored;
create index tasks_open_search_vector on tasks using gin (search_vector) where status = 'open';

-- Substring search is gone; the location filter still matches "contains" and uses a trigram index.
drop index if exists tasks_open_search;
create index tasks_open_location on tasks using gin (location_search gin_trgm_ops) where status = 'open';
