//! The browse list: open tasks filtered, searched and sorted, one keyset page at a time, and
//! the plan the database makes for it (for `bench/browse`). Word search is `store::search`.

use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp},
    geo::BoundingBox,
    on_pool,
};

use super::tasks::{SUSPENDED_POSTER, TASK_COLUMNS, TaskRow};

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
            Self::BestMatch => ("search_rank", "desc"),
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

/// Where the previous page ended: the last row's sort key and id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct After {
    pub key: SortKey,
    pub id: Uuid,
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

/// One page of the browse list (keyset pagination: rows strictly after `after`
/// in the sort order, so tasks posted between pages never shift a page).
#[instrument(skip_all)]
pub async fn open_tasks_page(
    db: &Db,
    filter: &BrowseFilter,
    sort: BrowseSort,
    after: Option<&After>,
    limit: i64,
) -> sqlx::Result<Vec<TaskRow>> {
    let (sql, args) = open_tasks_page_sql(db, filter, sort, after, limit);
    on_pool!(db, |pool| bind_args!(sqlx::query_as::<_, TaskRow>(sqlx::AssertSqlSafe(sql)), args).fetch_all(pool).await)
}

/// The database's plan for [`open_tasks_page`] (`EXPLAIN` on PostgreSQL, `EXPLAIN QUERY PLAN`
/// on SQLite), one line per step, so a benchmark can show which indexes a browse query uses.
pub async fn explain_open_tasks_page(
    db: &Db,
    filter: &BrowseFilter,
    sort: BrowseSort,
    after: Option<&After>,
    limit: i64,
) -> sqlx::Result<Vec<String>> {
    let (sql, args) = open_tasks_page_sql(db, filter, sort, after, limit);
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

/// The SQL of [`open_tasks_page`] and its bind values, in placeholder order.
fn open_tasks_page_sql(
    db: &Db,
    filter: &BrowseFilter,
    sort: BrowseSort,
    after: Option<&After>,
    limit: i64,
) -> (String, Vec<Arg>) {
    let mut conditions = vec!["t.status = 'open'".to_owned()];
    let mut args = Vec::new();
    let now = arg(Arg::Int(Timestamp::now().0), &mut args);
    conditions
        .push(format!("not exists ({SUSPENDED_POSTER} and (u.suspended_until is null or u.suspended_until > {now}))"));
    let mut join = String::new();
    let mut rank = "cast(0 as bigint)".to_owned();
    match filter.words.as_deref() {
        None => {}
        // Nothing searchable (only punctuation) finds nothing.
        Some([]) => conditions.push("1 = 0".into()),
        Some(words) => {
            let text = super::search::full_text(db, words, &mut args);
            (join, rank) = (text.join, text.rank);
            conditions.push(text.condition);
        }
    }
    if let Some(category_id) = filter.category_id {
        let p = arg(Arg::Int(category_id), &mut args);
        conditions.push(format!("t.category_id = {p}"));
    }
    if let Some(location) = &filter.location {
        let p = arg(Arg::Text(contains_pattern(location)), &mut args);
        conditions.push(format!("t.location_search like {p} escape '\\'"));
    }
    if let Some(min) = filter.min_budget_cents {
        let p = arg(Arg::Int(min), &mut args);
        conditions.push(format!("t.budget_cents >= {p}"));
    }
    if let Some(max) = filter.max_budget_cents {
        let p = arg(Arg::Int(max), &mut args);
        conditions.push(format!("t.budget_cents <= {p}"));
    }
    if let Some(bbox) = filter.within {
        let (min_lat, max_lat) = (arg(Arg::Real(bbox.min_lat), &mut args), arg(Arg::Real(bbox.max_lat), &mut args));
        let (min_lon, max_lon) = (arg(Arg::Real(bbox.min_lon), &mut args), arg(Arg::Real(bbox.max_lon), &mut args));
        conditions.push(format!("t.lat between {min_lat} and {max_lat} and t.lon between {min_lon} and {max_lon}"));
    }
    let (column, direction) = sort.key();
    // The keyset condition on the rank goes outside the query that computes it (SQLite allows
    // bm25 only where the full-text query is answered).
    let mut outer = Vec::new();
    if let Some(after) = after {
        let key = match &after.key {
            SortKey::Int(value) => arg(Arg::Int(*value), &mut args),
            SortKey::Text(value) => arg(Arg::Text(value.clone()), &mut args),
        };
        let id = arg(Arg::Id(after.id), &mut args);
        let op = if direction == "desc" { "<" } else { ">" };
        // Spelled out rather than as a row value so SQLite's planner keeps a range on the index.
        let keyset = |column: &str, id_column: &str| {
            format!("{column} {op}= {key} and ({column} {op} {key} or {id_column} {op} {id})")
        };
        match sort {
            BrowseSort::BestMatch => outer.push(keyset(column, "id")),
            _ => conditions.push(keyset(column, "t.id")),
        }
    }
    let limit = arg(Arg::Int(limit), &mut args);
    let matching = format!(
        "select {TASK_COLUMNS}, {rank} as search_rank from tasks t join profiles p on p.id = t.poster_id {join}
         where {}",
        conditions.join(" and ")
    );
    let sql = match sort {
        BrowseSort::BestMatch => format!(
            "with ranked as materialized ({matching})
             select * from ranked {}
             order by search_rank desc, id desc
             limit {limit}",
            if outer.is_empty() { String::new() } else { format!("where {}", outer.join(" and ")) }
        ),
        _ => format!("{matching} order by {column} {direction}, t.id {direction} limit {limit}"),
    };
    (sql, args)
}
