//! A tasker's portfolio: pictures of past work, in the order the tasker chose. The pictures
//! live in the media store under the item's id (`media::photos::PhotoKey::Portfolio`).

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{BeginWrite, Db, Timestamp},
    on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct PortfolioRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub title: String,
    pub description: Option<String>,
    pub position: i64,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

const COLUMNS: &str = "id, user_id, title, description, position, created_at, updated_at";

/// The portfolio of `user_id`, in its order.
#[instrument(skip_all)]
pub async fn items_of(db: &Db, user_id: Uuid) -> sqlx::Result<Vec<PortfolioRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PortfolioRow>(sqlx::AssertSqlSafe(format!(
            "select {COLUMNS} from portfolio_items where user_id = $1 order by position, id"
        )))
        .bind(user_id)
        .fetch_all(pool)
        .await
    })
}

/// Appends `item` to its owner's portfolio unless it already holds `max` items (then false,
/// nothing stored). `item.position` is ignored: a new item goes last.
#[instrument(skip_all)]
pub async fn add_item(db: &Db, item: &PortfolioRow, max: i64) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            // Takes the owner's profile row lock (PostgreSQL; SQLite's `begin immediate` already
            // serialises writers), so two uploads at once cannot both be the 12th.
            sqlx::query("update profiles set updated_at = updated_at where id = $1")
                .bind(item.user_id)
                .execute(&mut *tx)
                .await?;
            let (count, last): (i64, Option<i64>) =
                sqlx::query_as("select count(*), max(position) from portfolio_items where user_id = $1")
                    .bind(item.user_id)
                    .fetch_one(&mut *tx)
                    .await?;
            if count >= max {
                return Ok(false);
            }
            sqlx::query(
                "insert into portfolio_items (id, user_id, title, description, position, created_at, updated_at)
                 values ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(item.id)
            .bind(item.user_id)
            .bind(&item.title)
            .bind(&item.description)
            .bind(last.map_or(0, |last| last + 1))
            .bind(item.created_at)
            .bind(item.updated_at)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}

/// One edit of an item. `None` leaves a field alone; `description: Some(None)` clears it.
#[derive(Debug, Default)]
pub struct ItemChanges {
    pub title: Option<String>,
    pub description: Option<Option<String>>,
    /// The item's new place, counted from 0 (past the end means last).
    pub position: Option<usize>,
}

/// Applies `changes` to `user_id`'s item `id`; false when they have no such item. Moving an
/// item renumbers the portfolio 0, 1, 2… in the new order.
#[instrument(skip_all)]
pub async fn update_item(
    db: &Db,
    user_id: Uuid,
    id: Uuid,
    changes: &ItemChanges,
    now: Timestamp,
) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let updated = sqlx::query(
                "update portfolio_items set title = coalesce($3, title),
                        description = case when $4 then $5 else description end, updated_at = $6
                 where id = $1 and user_id = $2",
            )
            .bind(id)
            .bind(user_id)
            .bind(&changes.title)
            .bind(changes.description.is_some())
            .bind(changes.description.clone().flatten())
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if updated == 0 {
                return Ok(false);
            }
            if let Some(position) = changes.position {
                let mut order: Vec<Uuid> =
                    sqlx::query_scalar("select id from portfolio_items where user_id = $1 order by position, id")
                        .bind(user_id)
                        .fetch_all(&mut *tx)
                        .await?;
                order.retain(|other| *other != id);
                order.insert(position.min(order.len()), id);
                for (index, item) in order.iter().enumerate() {
                    sqlx::query("update portfolio_items set position = $2 where id = $1")
                        .bind(item)
                        .bind(index as i64)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}

/// Deletes `user_id`'s item `id`; false when they have no such item.
#[instrument(skip_all)]
pub async fn delete_item(db: &Db, user_id: Uuid, id: Uuid) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query("delete from portfolio_items where id = $1 and user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(pool)
            .await
            .map(|done| done.rows_affected() > 0)
    })
}
