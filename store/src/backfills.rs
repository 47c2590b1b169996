//! Columns that only Rust can compute for rows written before they existed,
//! filled in at start-up (cheap once done: the queries find nothing).

use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{BeginWrite, Db},
    on_pool,
    tasks::location_search,
};

const BATCH: i64 = 500;

/// Fills `tasks.location_search` (migration 0006) where it is still null; the number of rows filled.
#[instrument(skip_all)]
pub async fn fill_missing_location_search(db: &Db) -> sqlx::Result<u64> {
    let mut filled = 0;
    loop {
        let rows: Vec<(Uuid, String)> = on_pool!(db, |pool| {
            sqlx::query_as("select id, location from tasks where location_search is null limit $1")
                .bind(BATCH)
                .fetch_all(pool)
                .await
        })?;
        if rows.is_empty() {
            return Ok(filled);
        }
        // One transaction a batch: one commit instead of one per row.
        filled += on_pool!(db, |pool| {
            async {
                let mut tx = pool.begin_write().await?;
                let mut filled = 0;
                for (id, location) in &rows {
                    filled += sqlx::query("update tasks set location_search = $2 where id = $1")
                        .bind(id)
                        .bind(location_search(location))
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                }
                tx.commit().await?;
                Ok::<_, sqlx::Error>(filled)
            }
            .await
        })?;
    }
}
