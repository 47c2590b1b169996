//! The browse list's page: a word search (`search`) when the filter has words, else a sorted
//! listing of the open tasks (`browse`).

use tracing::instrument;

use crate::{
    browse::{
        self, After, BrowseFilter, BrowseRow, BrowseSort, Position, Stage, budget_read, fetch_rows, newest_after,
        sorted_page_sql,
    },
    db::{Db, Timestamp},
    search::{self, WalkEdge},
};

/// One page of the browse list (keyset pagination: rows strictly after `after`
/// in the sort order, so tasks posted between pages never shift a page).
#[instrument(skip_all)]
pub async fn page(
    db: &Db,
    walk_edge: &WalkEdge,
    filter: &BrowseFilter,
    sort: BrowseSort,
    after: Option<&After>,
    limit: i64,
) -> sqlx::Result<Vec<BrowseRow>> {
    match (filter.words.as_deref(), sort) {
        // Nothing searchable (only punctuation) finds nothing.
        (Some([]), _) => Ok(Vec::new()),
        (Some(words), BrowseSort::BestMatch) => {
            search::best_match_page(db, walk_edge, filter, words, after, limit).await
        }
        (Some(words), BrowseSort::Newest) => {
            let after = after.map(|after| Position { created_at: Timestamp(after.key.int()), id: after.id });
            let rows = search::newest_matches(db, filter, words, after.as_ref(), limit).await?;
            Ok(rows.into_iter().map(|task| BrowseRow { after: newest_after(&task, Stage::Sorted), task }).collect())
        }
        _ => {
            let sort = if sort == BrowseSort::BestMatch { BrowseSort::Newest } else { sort };
            let budget_read = budget_read(db, filter, sort).await?;
            let (sql, args) = sorted_page_sql(filter, sort, budget_read, after, limit);
            let rows = fetch_rows(db, sql, args).await?;
            Ok(rows
                .into_iter()
                .map(|task| BrowseRow {
                    after: After { key: sort.key_of(&task), id: task.id, stage: Stage::Sorted },
                    task,
                })
                .collect())
        }
    }
}

/// The plans the database makes for [`page`]'s queries, each under a `-- name` line,
/// so a benchmark can show which indexes a browse query uses.
pub async fn explain_page(
    db: &Db,
    filter: &BrowseFilter,
    sort: BrowseSort,
    after: Option<&After>,
    limit: i64,
) -> sqlx::Result<Vec<String>> {
    match filter.words.as_deref() {
        Some(words) if !words.is_empty() => search::explain(db, filter, words, sort, limit).await,
        _ => {
            let budget_read = budget_read(db, filter, sort).await?;
            let (sql, args) = sorted_page_sql(filter, sort, budget_read, after, limit);
            browse::explain(db, &sql, args).await
        }
    }
}
