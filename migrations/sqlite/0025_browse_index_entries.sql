-- The browse lists' indexes hold what a list checks on each entry, so SQLite reads a task only
-- when it is on the page (server/src/store/browse.rs, `BudgetRead`). Measured at a million open
-- tasks:
-- * A wide budget range walks its sort's index (newest, due soonest; a category's) and checks
--   each entry's budget, and its poster, whose suspension hides the task. A range of 2,500 tasks
--   walked 8,400 tasks for a page: 4.2 ms reading each task, 0.5 ms on the entries alone.
-- * A narrow range is read whole from the budget index and sorted by date posted or due date:
--   with those in the entries, a range of a thousand tasks no longer reads a thousand tasks.
-- Each index keeps its name and leading columns, so it still serves the same orders.
drop index tasks_open_newest;
create index tasks_open_newest on tasks (created_at desc, id desc, budget_cents, poster_id) where status = 'open';
drop index tasks_open_due;
create index tasks_open_due on tasks (due_date, id, budget_cents, poster_id) where status = 'open';
drop index tasks_open_budget;
create index tasks_open_budget on tasks (budget_cents, id, created_at, due_date, poster_id) where status = 'open';
drop index tasks_open_category_newest;
create index tasks_open_category_newest
    on tasks (category_id, created_at desc, id desc, budget_cents, poster_id) where status = 'open';
drop index tasks_open_category_due;
create index tasks_open_category_due on tasks (category_id, due_date, id, budget_cents, poster_id) where status = 'open';
drop index tasks_open_category_budget;
create index tasks_open_category_budget
    on tasks (category_id, budget_cents, id, created_at, due_date, poster_id) where status = 'open';
