use serde::Serialize;
use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp, new_id},
    on_pool,
};

/// Notification types of API.md.
pub mod kind {
    pub const OFFER: &str = "offer";
    pub const MESSAGE: &str = "message";
    pub const PAYMENT: &str = "payment";
    pub const REMINDER: &str = "reminder";
    pub const TASK: &str = "task";
    pub const TASK_ALERT: &str = "task_alert";
    pub const DISPUTE: &str = "dispute";
}

#[derive(Clone, Debug, FromRow, Serialize, utoipa::ToSchema)]
pub struct NotificationRow {
    pub id: Uuid,
    #[serde(skip)]
    pub user_id: Uuid,
    #[sqlx(rename = "type")]
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub message: String,
    pub link: Option<String>,
    pub is_read: bool,
    pub created_at: Timestamp,
}

impl NotificationRow {
    pub fn new(user_id: Uuid, kind: &str, title: &str, message: String, link: Option<String>, now: Timestamp) -> Self {
        Self {
            id: new_id(),
            user_id,
            kind: kind.to_owned(),
            title: title.to_owned(),
            message,
            link,
            is_read: false,
            created_at: now,
        }
    }
}

/// Inserts a [`NotificationRow`] inside the caller's transaction, so the
/// notification commits (or not) with the change that caused it. A macro
/// because the transaction's type differs per backend.
#[macro_export]
macro_rules! insert_notification {
    ($tx:expr, $row:expr) => {{
        let row: &$crate::store::notifications::NotificationRow = $row;
        sqlx::query(
            "insert into notifications (id, user_id, type, title, message, link, is_read, created_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(row.id)
        .bind(row.user_id)
        .bind(&row.kind)
        .bind(&row.title)
        .bind(&row.message)
        .bind(&row.link)
        .bind(row.is_read)
        .bind(row.created_at)
        .execute(&mut *$tx)
        .await
        .map(|done| done.rows_affected())
    }};
}

/// Newest first; `before` is the last id of the previous page (ids are time-ordered).
#[instrument(skip_all)]
pub async fn notifications_page(
    db: &Db,
    user_id: Uuid,
    unread_only: bool,
    before: Option<Uuid>,
    limit: i64,
) -> sqlx::Result<Vec<NotificationRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, NotificationRow>(
            "select id, user_id, type, title, message, link, is_read, created_at
             from notifications
             where user_id = $1 and ($2 = false or is_read = false) and ($3 = false or id < $4)
             order by id desc
             limit $5",
        )
        .bind(user_id)
        .bind(unread_only)
        .bind(before.is_some())
        .bind(before.unwrap_or_default())
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

#[instrument(skip_all)]
pub async fn unread_count(db: &Db, user_id: Uuid) -> sqlx::Result<i64> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, i64>("select count(*) from notifications where user_id = $1 and is_read = false")
            .bind(user_id)
            .fetch_one(pool)
            .await
    })
}

/// Marks one of the user's notifications read; false when it is not theirs or does not exist.
#[instrument(skip_all)]
pub async fn mark_read(db: &Db, user_id: Uuid, id: Uuid) -> sqlx::Result<bool> {
    let affected = on_pool!(db, |pool| {
        sqlx::query("update notifications set is_read = true where id = $1 and user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })?;
    Ok(affected == 1)
}

#[instrument(skip_all)]
pub async fn mark_all_read(db: &Db, user_id: Uuid) -> sqlx::Result<u64> {
    on_pool!(db, |pool| {
        sqlx::query("update notifications set is_read = true where user_id = $1 and is_read = false")
            .bind(user_id)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })
}
