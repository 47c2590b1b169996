//! The browse list: open tasks filtered, searched and sorted, one keyset page at a time, and
//! the plan the database makes for it (for `bench/browse`). Word search is `store::search`.

use uuid::Uuid;

use model::geo::BoundingBox;

use crate::{
    db::{Db, Timestamp},
    on_pool,
    tasks::{SUSPENDED_POSTER, TASK_COLUMNS, TaskRow},
};

pub use crate::Position;

/// Sort orders of the browse list; each has an index over open tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrowseSort {
    Newest,
    BudgetDesc,
    BudgetAsc,
    DueSoonest,
    /// Relevance to the search words; the default when there are any.
    BestMatch,
}

impl BrowseSort {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "" | "newest" => Some(Self::Newest),
            "budget_desc" => Some(Self::BudgetDesc),
            "budget_asc" => Some(Self::BudgetAsc),
            "due_soonest" => Some(Self::DueSoonest),
            "best_match" => Some(Self::BestMatch),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Newest => "newest",
            Self::BudgetDesc => "budget_desc",
            Self::BudgetAsc => "budget_asc",
            Self::DueSoonest => "due_soonest",
            Self::BestMatch => "best_match",
        }
    }

    /// (sort column, direction) — the id breaks ties in the same direction.
    fn key(self) -> (&'static str, &'static str) {
        match self {
            Self::Newest => ("t.created_at", "desc"),
            Self::BudgetDesc => ("t.budget_cents", "desc"),
            Self::BudgetAsc => ("t.budget_cents", "asc"),
            Self::DueSoonest => ("t.due_date", "asc"),
            // Best match without words is the newest list; with them, `store::search` orders it.
            Self::BestMatch => ("t.created_at", "desc"),
        }
    }

    /// The sort key of a row, as a cursor carries it.
    pub fn key_of(self, row: &TaskRow) -> SortKey {
        match self {
            Self::Newest => SortKey::Int(row.created_at.0),
            Self::BudgetDesc | Self::BudgetAsc => SortKey::Int(row.budget_cents),
            Self::DueSoonest => SortKey::Text(row.due_date.clone()),
            Self::BestMatch => SortKey::Int(row.search_rank),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum SortKey {
    Int(i64),
    Text(String),
}

/// Where the previous page ended: the last row's sort key and id, and for Best match which part of
/// the list it ended in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct After {
    pub key: SortKey,
    pub id: Uuid,
    pub stage: Stage,
}

/// Best match ranks the newest matches ([`super::search`]); the older ones follow, newest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Every sort but Best match.
    Sorted,
    /// Among Best match's ranked matches (the key is the rank). The window's oldest edge, when it
    /// ended before the oldest match, so later pages rank the same window.
    Ranked { floor: Option<Position> },
    /// Among the matches older than the ranked window, newest first (the key is `created_at`).
    Older,
}

/// A page's row and where the next page starts if the page ends with it.
pub struct BrowseRow {
    pub task: TaskRow,
    pub after: After,
}

#[derive(Clone, Debug, Default)]
pub struct BrowseFilter {
    /// The search's words ([`search_words`]): tasks whose title or description has a word
    /// starting with each of them, after stemming.
    pub words: Option<Vec<String>>,
    pub category_id: Option<i64>,
    /// Location fragment, lower-cased with [`location_search`].
    pub location: Option<String>,
    pub min_budget_cents: Option<i64>,
    pub max_budget_cents: Option<i64>,
    /// Only tasks inside this box (the caller checks the exact distance).
    pub within: Option<BoundingBox>,
}

impl BrowseFilter {
    /// True when a filter other than the words is set.
    pub(super) fn narrows(&self) -> bool {
        let BrowseFilter { words: _, category_id, location, min_budget_cents, max_budget_cents, within } = self;
        category_id.is_some()
            || location.is_some()
            || min_budget_cents.is_some()
            || max_budget_cents.is_some()
            || within.is_some()
    }
}

pub(super) enum Arg {
    Int(i64),
    Real(f64),
    Text(String),
    Id(Uuid),
}

/// Adds a bind value and returns its placeholder.
pub(super) fn arg(value: Arg, args: &mut Vec<Arg>) -> String {
    args.push(value);
    format!("${}", args.len())
}

/// `%term%` for LIKE, with LIKE's own wildcards taken literally.
fn contains_pattern(term: &str) -> String {
    let escaped = term.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    format!("%{escaped}%")
}

/// Binds a browse query's values ([`Arg`]) in placeholder order.
macro_rules! bind_args {
    ($query:expr, $args:expr) => {{
        let mut query = $query;
        for value in $args {
            query = match value {
                Arg::Int(value) => query.bind(value),
                Arg::Real(value) => query.bind(value),
                Arg::Text(value) => query.bind(value),
                Arg::Id(value) => query.bind(value),
            };
        }
        query
    }};
}
pub(super) use bind_args;

/// Where the newest-first list continues after `task`.
pub(super) fn newest_after(task: &TaskRow, stage: Stage) -> After {
    After { key: SortKey::Int(task.created_at.0), id: task.id, stage }
}

impl SortKey {
    /// The integer key (a text key, which only Due soonest has, reads as 0).
    pub fn int(&self) -> i64 {
        match self {
            SortKey::Int(value) => *value,
            SortKey::Text(_) => 0,
        }
    }
}

pub(super) async fn fetch_rows(db: &Db, sql: String, args: Vec<Arg>) -> sqlx::Result<Vec<TaskRow>> {
    on_pool!(db, |pool| bind_args!(sqlx::query_as::<_, TaskRow>(sqlx::AssertSqlSafe(sql.clone())), args)
        .fetch_all(pool)
        .await)
}

/// A count.
pub(super) async fn fetch_count(db: &Db, sql: String, args: Vec<Arg>) -> sqlx::Result<i64> {
    on_pool!(db, |pool| bind_args!(sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql.clone())), args)
        .fetch_one(pool)
        .await)
}

/// One task's place in the newest-first order, if there is such a row.
pub(super) async fn fetch_position(db: &Db, sql: String, args: Vec<Arg>) -> sqlx::Result<Option<Position>> {
    let row =
        on_pool!(db, |pool| bind_args!(sqlx::query_as::<_, (i64, Uuid)>(sqlx::AssertSqlSafe(sql.clone())), args)
            .fetch_optional(pool)
            .await)?;
    Ok(row.map(|(created_at, id)| Position { created_at: Timestamp(created_at), id }))
}

/// The database's plan for a query (`EXPLAIN` on PostgreSQL, `EXPLAIN QUERY PLAN` on SQLite),
/// one line per step.
pub(super) async fn explain(db: &Db, sql: &str, args: Vec<Arg>) -> sqlx::Result<Vec<String>> {
    match db {
        Db::Postgres(pool) => {
            let query = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(format!("explain {sql}")));
            bind_args!(query, args).fetch_all(pool).await
        }
        Db::Sqlite(pool) => {
            let plan = format!("explain query plan {sql}");
            let query = sqlx::query_as::<_, (i64, i64, i64, String)>(sqlx::AssertSqlSafe(plan));
            let steps = bind_args!(query, args).fetch_all(pool).await?;
            Ok(steps.into_iter().map(|(.., detail)| detail).collect())
        }
    }
}

/// The conditions every browse query has: open, its poster not suspended, the filters but words.
pub(super) fn filter_conditions(filter: &BrowseFilter, args: &mut Vec<Arg>) -> Vec<String> {
    filter_conditions_on(filter, "t.budget_cents", args)
}

/// [`filter_conditions`], with the budget range on `budget` (`+t.budget_cents` keeps SQLite from
/// reading the range from the budget index).
fn filter_conditions_on(filter: &BrowseFilter, budget: &str, args: &mut Vec<Arg>) -> Vec<String> {
    let mut conditions = vec!["t.status = 'open'".to_owned()];
    let now = arg(Arg::Int(Timestamp::now().0), args);
    conditions
        .push(format!("not exists ({SUSPENDED_POSTER} and (u.suspended_until is null or u.suspended_until > {now}))"));
    if let Some(category_id) = filter.category_id {
        let p = arg(Arg::Int(category_id), args);
        conditions.push(format!("t.category_id = {p}"));
    }
    if let Some(location) = &filter.location {
        let p = arg(Arg::Text(contains_pattern(location)), args);
        conditions.push(format!("t.location_search like {p} escape '\\'"));
    }
    if let Some(min) = filter.min_budget_cents {
        let p = arg(Arg::Int(min), args);
        conditions.push(format!("{budget} >= {p}"));
    }
    if let Some(max) = filter.max_budget_cents {
        let p = arg(Arg::Int(max), args);
        conditions.push(format!("{budget} <= {p}"));
    }
    if let Some(bbox) = filter.within {
        let (min_lat, max_lat) = (arg(Arg::Real(bbox.min_lat), args), arg(Arg::Real(bbox.max_lat), args));
        let (min_lon, max_lon) = (arg(Arg::Real(bbox.min_lon), args), arg(Arg::Real(bbox.max_lon), args));
        conditions.push(format!("t.lat between {min_lat} and {max_lat} and t.lon between {min_lon} and {max_lon}"));
    }
    conditions
}

/// `column op key` in keyset form, ties broken by `id_column`: spelled out rather than as a row
/// value so SQLite's planner keeps a range on the index. `op` is `<` or `>` (`>=`/`<=` include
/// the row itself).
pub(super) fn keyset(column: &str, id_column: &str, op: &str, key: &str, id: &str) -> String {
    let strict = &op[..1];
    format!("{column} {strict}= {key} and ({column} {strict} {key} or {id_column} {op} {id})")
}

/// How a list without words reads its budget range.
///
/// SQLite's statistics count an index's entries per key, not how many fall in a range, so its
/// planner cannot tell a narrow budget range from a wide one. With them it read a wide range's
/// newest tasks by sorting every task in the range (5 s a page at a million tasks); without
/// them, it would walk every open task in search of a range holding none. On SQLite the server
/// counts first ([`budget_read`]) and tells the planner which index to read. Either way, when
/// the filters are the budget and the category, the page is chosen on index entries alone, which
/// hold the budget, the sort's columns and the poster
/// (`migrations/sqlite/0025_browse_index_entries.sql`), and only the page's tasks are read:
/// reading each task the walk passed was 90% of a page's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetRead {
    /// The planner chooses: PostgreSQL (whose statistics hold the budgets' distribution), no
    /// budget range, or a list in budget order.
    Planned,
    /// Fewer than [`NARROW_BUDGET_RANGE`] open tasks in the range: sort all their entries of
    /// the budget index, then read the page's tasks. Named, not left to the planner: with the
    /// counts a bounded analysis gathers, SQLite chose to read every poster's tasks instead
    /// (1.7 s a page at a million tasks).
    BudgetIndex,
    /// A wide range: walk the sort's own index in order and check the range on each entry. A
    /// page takes about `limit × open tasks / NARROW_BUDGET_RANGE` entries when budgets do not
    /// follow the sort (a range whose tasks are all the oldest walks further).
    SortIndex,
}

/// A budget range with fewer open tasks than this is read whole from the budget index and sorted.
pub const NARROW_BUDGET_RANGE: i64 = 2_000;

/// Counts, on SQLite, up to [`NARROW_BUDGET_RANGE`] open tasks in the filter's budget range (and
/// category) from the budget index, to choose how the list reads the range.
pub async fn budget_read(db: &Db, filter: &BrowseFilter, sort: BrowseSort) -> sqlx::Result<BudgetRead> {
    let by_budget = matches!(sort, BrowseSort::BudgetDesc | BrowseSort::BudgetAsc);
    let has_range = filter.min_budget_cents.is_some() || filter.max_budget_cents.is_some();
    if by_budget || !has_range || !matches!(db, Db::Sqlite(_)) {
        return Ok(BudgetRead::Planned);
    }
    let mut args = Vec::new();
    let mut conditions = vec!["status = 'open'".to_owned()];
    if let Some(category_id) = filter.category_id {
        conditions.push(format!("category_id = {}", arg(Arg::Int(category_id), &mut args)));
    }
    if let Some(min) = filter.min_budget_cents {
        conditions.push(format!("budget_cents >= {}", arg(Arg::Int(min), &mut args)));
    }
    if let Some(max) = filter.max_budget_cents {
        conditions.push(format!("budget_cents <= {}", arg(Arg::Int(max), &mut args)));
    }
    let sql = format!(
        "select count(*) from (select 1 from tasks indexed by {} where {} limit {NARROW_BUDGET_RANGE})",
        budget_index(filter),
        conditions.join(" and ")
    );
    let in_range = fetch_count(db, sql, args).await?;
    Ok(if in_range < NARROW_BUDGET_RANGE { BudgetRead::BudgetIndex } else { BudgetRead::SortIndex })
}

/// SQLite: the index of the open tasks' budgets, the category's when the filter has one.
fn budget_index(filter: &BrowseFilter) -> &'static str {
    if filter.category_id.is_some() { "tasks_open_category_budget" } else { "tasks_open_budget" }
}

/// A list without words: the filters, in `sort`'s order, after `after`.
pub(crate) fn sorted_page_sql(
    filter: &BrowseFilter,
    sort: BrowseSort,
    budget_read: BudgetRead,
    after: Option<&After>,
    limit: i64,
) -> (String, Vec<Arg>) {
    let mut args = Vec::new();
    let (column, direction) = sort.key();
    // How SQLite reads the range: a narrow one from the index named, a wide one on each entry
    // of the sort's index (SQLite reads no index for a column written `+column`).
    let (tasks, budget) = match budget_read {
        BudgetRead::Planned => ("tasks t".to_owned(), "t.budget_cents"),
        BudgetRead::BudgetIndex => (format!("tasks t indexed by {}", budget_index(filter)), "t.budget_cents"),
        BudgetRead::SortIndex => ("tasks t".to_owned(), "+t.budget_cents"),
    };
    let mut conditions = filter_conditions_on(filter, budget, &mut args);
    if let Some(after) = after {
        let key = match &after.key {
            SortKey::Int(value) => arg(Arg::Int(*value), &mut args),
            SortKey::Text(value) => arg(Arg::Text(value.clone()), &mut args),
        };
        let id = arg(Arg::Id(after.id), &mut args);
        let op = if direction == "desc" { "<" } else { ">" };
        conditions.push(keyset(column, "t.id", op, &key, &id));
    }
    let limit = arg(Arg::Int(limit), &mut args);
    let order = format!("order by {column} {direction}, t.id {direction}");
    // The page's tasks are chosen first, on what the filters and the order need (index entries
    // alone, when the filters are the budget and the category: they hold the budget, the sort's
    // columns and the poster; on PostgreSQL where vacuum has marked the pages all-visible), and
    // only they are read and joined to their posters. Joined first, PostgreSQL hashed every
    // profile to read a narrow budget range (3.4 ms against 1.2 ms at a million tasks). Every
    // task has a profile (written with its user), so the join after the limit drops none.
    let sql = format!(
        "select {TASK_COLUMNS} from (select t.id from {tasks} where {} {order} limit {limit}) page
         join tasks t on t.id = page.id
         join profiles p on p.id = t.poster_id
         {order}",
        conditions.join(" and ")
    );
    (sql, args)
}
