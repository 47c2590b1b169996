//! Browse's search by words, in each database's own full-text engine (docs/architecture.md,
//! decision 15): the words of a query, and the pages of matches newest first and by Best match.
//!
//! At a million tasks a common word matches a hundred thousand of them, too many to rank or sort
//! per request. So Best match ranks relevance *within recency*, as marketplaces do: it ranks the
//! newest [`RANKED_WINDOW`] matches among the newest [`WALK`] open tasks, and the older matches
//! follow newest first. A cursor carries the window's oldest edge (its floor), so every page ranks
//! the same window and paging has no duplicates or gaps.
//!
//! Newest first, each engine reads in recency order and stops at a page. SQLite reads FTS5's
//! matches by descending rowid, which is insertion order: the order tasks are posted in, and so of
//! their `created_at` (the demo seed, too, posts oldest first); nothing is sorted. PostgreSQL
//! first counts the matches among the newest [`PROBE`] tasks: common words walk the newest index
//! and check each task's vector, rare ones read the GIN index and sort what it finds.

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

use uuid::Uuid;

use crate::{
    browse::{
        After, Arg, BrowseFilter, BrowseRow, BrowseSort, Position, SortKey, Stage, arg, bind_args, explain as plan_of,
        fetch_count, fetch_position, fetch_rows, filter_conditions, keyset, newest_after,
    },
    db::{Db, Timestamp},
    on_pool,
    tasks::{TASK_COLUMNS, TaskRow},
};

/// Best match ranks at most this many of the newest matches.
pub const RANKED_WINDOW: i64 = 500;
/// Best match ranks matches among this many of the newest open tasks at most.
pub const WALK: i64 = 10_000;

/// The words of a search, lower-cased, at most eight: letters and digits only, so they are safe
/// inside either engine's query syntax.
pub fn search_words(q: &str) -> Vec<String> {
    q.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty()).take(8).map(str::to_lowercase).collect()
}

/// The full-text match of `words` (each a prefix of a stemmed word, all required) and its rank
/// (larger is better, an integer so a cursor can carry it), per backend. On SQLite the query
/// reads `tasks_fts` first (`from`), then the task by rowid.
struct FullText {
    from: String,
    condition: String,
    rank: String,
}

fn full_text(db: &Db, words: &[String], args: &mut Vec<Arg>) -> FullText {
    match db {
        Db::Postgres(_) => {
            let terms: Vec<String> = words.iter().map(|word| format!("{word}:*")).collect();
            // A subquery, so it is parsed and stemmed once per statement: written inline,
            // PostgreSQL evaluates `to_tsquery` again for every row it checks or ranks (a third
            // of a Best match's time at a million tasks).
            let query = format!("(select to_tsquery('english', {}))", arg(Arg::Text(terms.join(" & ")), args));
            FullText {
                from: "tasks t".into(),
                condition: format!("t.search_vector @@ {query}"),
                rank: format!("(ts_rank(t.search_vector, {query}) * 1000000)::bigint"),
            }
        }
        Db::Sqlite(_) => {
            let terms: Vec<String> = words.iter().map(|word| format!("\"{word}\"*")).collect();
            FullText {
                // `cross join` keeps the full-text index as the outer loop, read in rowid order.
                from: "tasks_fts cross join tasks t on t.rowid = tasks_fts.rowid".into(),
                condition: format!("tasks_fts match {}", arg(Arg::Text(terms.join(" ")), args)),
                // How often the words occur, where: `store/match_rank.rs`.
                rank: "match_rank(tasks_fts)".into(),
            }
        }
    }
}

/// SQLite: the rowid of the task at `position` (or, if it is gone, just above the newest task
/// posted before it), which bounds a read of the full-text index in rowid order.
fn rowid_of(position: &Position, args: &mut Vec<Arg>) -> String {
    let id = arg(Arg::Id(position.id), args);
    let created_at = arg(Arg::Int(position.created_at.0), args);
    format!(
        "coalesce((select rowid from tasks where id = {id}),
                  (select coalesce(max(rowid), 0) + 1 from tasks where created_at < {created_at}))"
    )
}

/// PostgreSQL: the newest `walk` open tasks passing the filters' `conditions` (down to `floor`,
/// if given), as a subquery named `t` of the columns a window needs: the tasks a Best match window
/// covers. The filters are inside, so the planner can read an index of theirs (a category's
/// newest tasks, say) instead of every one of the newest tasks; the limit keeps it from folding
/// the words in and reading the GIN index (it estimates a prefix at 2% of the table, and a common
/// word's bitmap costs a hundred times the walk).
fn newest_walk(mut conditions: Vec<String>, floor: Option<&Position>, walk: i64, args: &mut Vec<Arg>) -> String {
    if let Some(floor) = floor {
        let (key, id) = (arg(Arg::Int(floor.created_at.0), args), arg(Arg::Id(floor.id), args));
        conditions.push(keyset("t.created_at", "t.id", ">=", &key, &id));
    }
    format!(
        "(select t.id, t.created_at, t.search_vector from tasks t where {}
          order by t.created_at desc, t.id desc limit {walk}) t",
        conditions.join(" and ")
    )
}

/// PostgreSQL: how many of the newest `PROBE` open tasks match: whether the words are common
/// (walk the newest index and check each task) or rare (ask the GIN index, sort what it finds).
/// The planner cannot tell: it estimates every prefix search at a fixed 2% of the table.
const PROBE: i64 = 1_000;
/// At least this many matches among the newest `PROBE` tasks make the words common.
const COMMON: i64 = 5;

fn probe_sql(db: &Db, words: &[String]) -> (String, Vec<Arg>) {
    let mut args = Vec::new();
    let text = full_text(db, words, &mut args);
    let sql = format!(
        "select count(*) from (select t.search_vector from tasks t where t.status = 'open'
                               order by t.created_at desc, t.id desc limit {PROBE}) t
         where {}",
        text.condition
    );
    (sql, args)
}

/// Matches of `words` passing `filter`, newest first, after `after`.
pub(super) async fn newest_matches(
    db: &Db,
    filter: &BrowseFilter,
    words: &[String],
    after: Option<&Position>,
    limit: i64,
) -> sqlx::Result<Vec<TaskRow>> {
    let common = match db {
        Db::Postgres(_) => {
            let (sql, args) = probe_sql(db, words);
            fetch_count(db, sql, args).await? >= COMMON
        }
        Db::Sqlite(_) => true,
    };
    let (sql, args) = newest_matches_sql(db, filter, words, after, limit, common);
    fetch_rows(db, sql, args).await
}

/// The query of [`newest_matches`]; on PostgreSQL `common` words walk the newest index, rare ones
/// read the GIN index.
fn newest_matches_sql(
    db: &Db,
    filter: &BrowseFilter,
    words: &[String],
    after: Option<&Position>,
    limit: i64,
    common: bool,
) -> (String, Vec<Arg>) {
    let mut args = Vec::new();
    let text = full_text(db, words, &mut args);
    let mut conditions = filter_conditions(filter, &mut args);
    let limit = arg(Arg::Int(limit), &mut args);
    let sql = match db {
        Db::Postgres(_) => {
            let after = after.map(|after| {
                let (key, id) = (arg(Arg::Int(after.created_at.0), &mut args), arg(Arg::Id(after.id), &mut args));
                keyset("t.created_at", "t.id", "<", &key, &id)
            });
            if common {
                // The open tasks newest first from `after`, behind `offset 0` so the planner
                // cannot fold the words into it and pick the GIN index (it estimates two words at
                // 0.04%): a walk down the newest index that starts at the cursor (outside, nothing
                // pushes it in, and every later page walked again from the newest task) and stops
                // at a page of matches. The filters stay outside too: inside, nothing tells the
                // planner that the walk stops early, and with a category and a budget it read and
                // sorted all of them (120 ms against 1.3 ms at a million tasks).
                let walk = after.map_or(String::new(), |after| format!("and {after}"));
                format!(
                    "select {TASK_COLUMNS} from (
                         select t.* from (select * from tasks t where t.status = 'open' {walk}
                                          order by t.created_at desc, t.id desc offset 0) t
                         where {} and {} order by t.created_at desc, t.id desc limit {limit}
                     ) t join profiles p on p.id = t.poster_id
                     order by t.created_at desc, t.id desc",
                    text.condition,
                    conditions.join(" and ")
                )
            } else {
                conditions.extend(after);
                // `+ 0`: not the newest index's order, so the planner reads the GIN index.
                format!(
                    "select {TASK_COLUMNS} from tasks t join profiles p on p.id = t.poster_id
                     where {} and {} order by t.created_at + 0 desc, t.id desc limit {limit}",
                    text.condition,
                    conditions.join(" and ")
                )
            }
        }
        Db::Sqlite(_) => {
            if let Some(after) = after {
                conditions.push(format!("tasks_fts.rowid < {}", rowid_of(after, &mut args)));
            }
            format!(
                "select {TASK_COLUMNS} from {} join profiles p on p.id = t.poster_id
                 where {} and {} order by tasks_fts.rowid desc limit {limit}",
                text.from,
                text.condition,
                conditions.join(" and ")
            )
        }
    };
    (sql, args)
}

/// The ranked window: (id, created_at, search_rank, place) of the newest `RANKED_WINDOW` matches
/// among the newest `WALK` open tasks, down to `floor` (the walk's edge on the first page, the
/// first page's floor on later pages, which then take every match down to it), newest first.
/// `place` then `id` order it from its oldest: `created_at` on PostgreSQL, the full-text index's
/// rowid on SQLite (the order its window is read in).
fn window_sql(
    db: &Db,
    filter: &BrowseFilter,
    words: &[String],
    first: bool,
    floor: Option<&Position>,
    args: &mut Vec<Arg>,
) -> String {
    let text = full_text(db, words, args);
    let mut conditions = filter_conditions(filter, args);
    // Later pages may see tasks posted since; room for them, still bounded.
    let (limit, walk) = if first { (RANKED_WINDOW, WALK) } else { (4 * RANKED_WINDOW, 2 * WALK) };
    match db {
        Db::Postgres(_) => format!(
            "select t.id, t.created_at, {} as search_rank, t.created_at as place from {} where {}
             order by t.created_at desc, t.id desc limit {limit}",
            text.rank,
            newest_walk(conditions, floor, walk, args),
            text.condition
        ),
        Db::Sqlite(_) => {
            let lowest = floor.map(|floor| rowid_of(floor, args));
            if let Some(lowest) = &lowest {
                conditions.push(format!("tasks_fts.rowid >= {lowest}"));
            }
            if let Some(category_id) = filter.category_id {
                conditions.push(in_category(category_id, lowest.as_deref(), args));
            }
            format!(
                "select t.id, t.created_at, {} as search_rank, tasks_fts.rowid as place from {} where {} and {}
                 order by tasks_fts.rowid desc limit {limit}",
                text.rank,
                text.from,
                text.condition,
                conditions.join(" and ")
            )
        }
    }
}

/// SQLite: the window's matches in a category, as a list of the category's open tasks from
/// `lowest` up, read from `tasks_open_category_rowid` without visiting a task. Each of the
/// window's matches is checked against it before its task is read: most matches of a common word
/// are in other categories, and reading each of their tasks to see so was most of the time of a
/// Best match with a category (1.4 ms against 0.4 ms for "clean" in one category at a million
/// tasks). The `+` keeps SQLite from handing the list to FTS5, which would look every rowid in it
/// up in the full-text index (66 ms).
fn in_category(category_id: i64, lowest: Option<&str>, args: &mut Vec<Arg>) -> String {
    let category = arg(Arg::Int(category_id), args);
    let from = lowest.map_or(String::new(), |lowest| format!("and rowid >= {lowest}"));
    format!("+tasks_fts.rowid in (select rowid from tasks where status = 'open' and category_id = {category} {from})")
}

/// The oldest of the newest `WALK` open tasks, when there are that many: how far back a first
/// window reaches.
fn walk_edge_sql() -> (String, Vec<Arg>) {
    let sql = format!(
        "select t.created_at, t.id from tasks t where t.status = 'open'
         order by t.created_at desc, t.id desc limit 1 offset {}",
        WALK - 1
    );
    (sql, Vec::new())
}

/// How long a node reuses the walk's edge it read.
const EDGE_MAX_AGE: Duration = Duration::from_secs(1);

/// The walk's edge as this node last read it. Reading it steps through `WALK` entries of the
/// newest index, visiting each task (the newest pages are rarely all-visible): at a million tasks
/// a third of a Best match request's time in the database. It moves only as tasks are posted and
/// closed, so a node reads it at most once every [`EDGE_MAX_AGE`]; an edge that old makes a first
/// window a few tasks wider or narrower, and later pages rank the window their cursor's floor
/// names, so paging stays whole.
#[derive(Default)]
pub struct WalkEdge {
    read: Mutex<Option<(Instant, Option<Position>)>>,
}

impl WalkEdge {
    async fn get(&self, db: &Db) -> sqlx::Result<Option<Position>> {
        if let Some((at, edge)) = *self.read.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
            && at.elapsed() < EDGE_MAX_AGE
        {
            return Ok(edge);
        }
        let (sql, args) = walk_edge_sql();
        let edge = fetch_position(db, sql, args).await?;
        *self.read.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some((Instant::now(), edge));
        Ok(edge)
    }
}

/// A task of a Best match page, with what the page's statement read of its window: how many
/// matches it holds and the oldest of them.
#[derive(sqlx::FromRow)]
struct RankedRow {
    #[sqlx(flatten)]
    task: TaskRow,
    window_size: i64,
    oldest_created_at: i64,
    oldest_id: Uuid,
}

/// Up to `limit` tasks of the ranked window (see [`window_sql`]) by rank then id, after `from`:
/// one statement, so the window's matches stay in the database and only a page of tasks comes
/// back (handing each of the window's 500 rows from SQLite's thread to the server's was a fifth
/// of a Best match's time).
fn ranked_page_sql(
    db: &Db,
    filter: &BrowseFilter,
    words: &[String],
    first: bool,
    floor: Option<&Position>,
    from: Option<(i64, Uuid)>,
    limit: i64,
) -> (String, Vec<Arg>) {
    let mut args = Vec::new();
    let window = window_sql(db, filter, words, first, floor, &mut args);
    let after = from.map_or("true".to_owned(), |(rank, id)| {
        let (rank, id) = (arg(Arg::Int(rank), &mut args), arg(Arg::Id(id), &mut args));
        keyset("w.search_rank", "w.id", "<", &rank, &id)
    });
    let limit = arg(Arg::Int(limit), &mut args);
    let sql = format!(
        "with w as ({window})
         select {TASK_COLUMNS}, r.search_rank, (select count(*) from w) as window_size,
                o.created_at as oldest_created_at, o.id as oldest_id
         from (select w.id, w.search_rank from w where {after} order by w.search_rank desc, w.id desc limit {limit}) r
         join tasks t on t.id = r.id
         join profiles p on p.id = t.poster_id
         cross join (select w.created_at, w.id from w order by w.place, w.id limit 1) o
         order by r.search_rank desc, r.id desc"
    );
    (sql, args)
}

/// The rows of [`ranked_page_sql`]. With filters, PostgreSQL plans it for its values every time
/// (an unnamed statement): which index reads the window best depends on the filters and on the
/// walk's edge, and after five runs of a prepared statement PostgreSQL may settle on a generic
/// plan, which at a million tasks read a whole category's budget index and sorted it (173 ms
/// against 3 ms). Without filters there is one good plan, and planning it again each time would
/// cost more than it saves.
async fn fetch_ranked(db: &Db, filter: &BrowseFilter, sql: String, args: Vec<Arg>) -> sqlx::Result<Vec<RankedRow>> {
    let prepared = matches!(db, Db::Sqlite(_)) || !filter.narrows();
    on_pool!(db, |pool| bind_args!(sqlx::query_as::<_, RankedRow>(sqlx::AssertSqlSafe(sql.clone())), args)
        .persistent(prepared)
        .fetch_all(pool)
        .await)
}

/// One page of Best match: the ranked window by rank (then id), then the older matches newest first.
pub(super) async fn best_match_page(
    db: &Db,
    walk_edge: &WalkEdge,
    filter: &BrowseFilter,
    words: &[String],
    after: Option<&After>,
    limit: i64,
) -> sqlx::Result<Vec<BrowseRow>> {
    let older = |after: Position, limit: i64| async move {
        let rows = newest_matches(db, filter, words, Some(&after), limit).await?;
        Ok::<_, sqlx::Error>(
            rows.into_iter()
                .map(|task| BrowseRow { after: newest_after(&task, Stage::Older), task })
                .collect::<Vec<_>>(),
        )
    };
    let (rows, floor) = match after.map(|after| (after, after.stage)) {
        // The first page's floor: the oldest task of a full window, else the walk's edge (when
        // older tasks exist).
        None => {
            let edge = walk_edge.get(db).await?;
            let (sql, args) = ranked_page_sql(db, filter, words, true, edge.as_ref(), None, limit);
            let rows = fetch_ranked(db, filter, sql, args).await?;
            let floor = match rows.first() {
                Some(row) if row.window_size == RANKED_WINDOW => {
                    Some(Position { created_at: Timestamp(row.oldest_created_at), id: row.oldest_id })
                }
                _ => edge,
            };
            (rows, floor)
        }
        Some((after, Stage::Ranked { floor })) => {
            let from = Some((after.key.int(), after.id));
            let (sql, args) = ranked_page_sql(db, filter, words, false, floor.as_ref(), from, limit);
            (fetch_ranked(db, filter, sql, args).await?, floor)
        }
        Some((after, _)) => {
            return older(Position { created_at: Timestamp(after.key.int()), id: after.id }, limit).await;
        }
    };
    let ranked = rows.len() as i64;
    let mut page: Vec<BrowseRow> = rows
        .into_iter()
        .map(|RankedRow { task, .. }| {
            let after = After { key: SortKey::Int(task.search_rank), id: task.id, stage: Stage::Ranked { floor } };
            BrowseRow { task, after }
        })
        .collect();
    // The window is used up within this page: the older matches follow.
    if ranked < limit
        && let Some(floor) = floor
    {
        page.extend(older(floor, limit - ranked).await?);
    }
    Ok(page)
}

/// The plans of a search's queries, each under a `-- query` line.
pub(super) async fn explain(
    db: &Db,
    filter: &BrowseFilter,
    words: &[String],
    sort: BrowseSort,
    limit: i64,
) -> sqlx::Result<Vec<String>> {
    let edge = {
        let (sql, args) = walk_edge_sql();
        fetch_position(db, sql, args).await?
    };
    let queries: Vec<(&str, (String, Vec<Arg>))> = match (sort, db) {
        (BrowseSort::BestMatch, _) => vec![
            ("edge of the walk", walk_edge_sql()),
            ("first page", ranked_page_sql(db, filter, words, true, edge.as_ref(), None, limit)),
        ],
        (_, Db::Postgres(_)) => vec![
            ("common words or rare?", probe_sql(db, words)),
            ("common words: walk the newest index", newest_matches_sql(db, filter, words, None, limit, true)),
            ("rare words: the GIN index", newest_matches_sql(db, filter, words, None, limit, false)),
        ],
        (_, Db::Sqlite(_)) => vec![("newest matches", newest_matches_sql(db, filter, words, None, limit, true))],
    };
    let mut lines = Vec::new();
    for (name, (sql, args)) in queries {
        lines.push(format!("-- {name}"));
        lines.extend(plan_of(db, &sql, args).await?);
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::search_words;

    #[test]
    fn search_words_keep_letters_and_digits_only() {
        assert_eq!(search_words("  Window CLEANER, 2-storey!"), ["window", "cleaner", "2", "storey"]);
        assert_eq!(search_words("\"tap\" OR * (sink) -drain:*"), ["tap", "or", "sink", "drain"]);
        assert_eq!(search_words("Café Zürich"), ["café", "zürich"]);
        assert!(search_words("*** ---").is_empty());
        assert_eq!(search_words("a b c d e f g h i j").len(), 8);
    }
}
