//! Private messages between a task's poster and its assigned tasker.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{BeginWrite, Db, Timestamp},
    insert_notification,
    notifications::NotificationRow,
    on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct MessageRow {
    pub id: Uuid,
    pub task_id: Uuid,
    pub sender_id: Uuid,
    pub recipient_id: Uuid,
    /// Null once a moderator removed it (the text is kept for the audit).
    pub body: Option<String>,
    pub removed: bool,
    pub created_at: Timestamp,
    /// The attached photo; null without one and once removed (except to operators).
    pub photo_id: Option<Uuid>,
}

/// Stores the message and the recipient's notification together.
#[instrument(skip_all)]
pub async fn insert_message(db: &Db, message: &MessageRow, notification: &NotificationRow) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            sqlx::query(
                "insert into messages (id, task_id, sender_id, recipient_id, body, created_at, photo_id)
                 values ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(message.id)
            .bind(message.task_id)
            .bind(message.sender_id)
            .bind(message.recipient_id)
            .bind(&message.body)
            .bind(message.created_at)
            .bind(message.photo_id)
            .execute(&mut *tx)
            .await?;
            insert_notification!(tx, notification)?;
            tx.commit().await
        }
        .await
    })
}

/// The conversation of a task, oldest first (the newest `limit`); a removed message's text only
/// `with_removed` (for an operator).
#[instrument(skip_all)]
pub async fn messages_for_task(
    db: &Db,
    task_id: Uuid,
    limit: i64,
    with_removed: bool,
) -> sqlx::Result<Vec<MessageRow>> {
    let mut rows = on_pool!(db, |pool| {
        sqlx::query_as::<_, MessageRow>(
            "select id, task_id, sender_id, recipient_id, case when removed_at is null or $3 then body end as body,
                    removed_at is not null as removed, created_at,
                    case when removed_at is null or $3 then photo_id end as photo_id from messages
             where task_id = $1 order by id desc limit $2",
        )
        .bind(task_id)
        .bind(limit)
        .bind(with_removed)
        .fetch_all(pool)
        .await
    })?;
    rows.reverse();
    Ok(rows)
}

/// Whether `photo_id` is the photo of a message of `task_id` that was not removed.
#[instrument(skip_all)]
pub async fn photo_is_shown(db: &Db, task_id: Uuid, photo_id: Uuid) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, i64>(
            "select count(*) from messages where task_id = $1 and photo_id = $2 and removed_at is null",
        )
        .bind(task_id)
        .bind(photo_id)
        .fetch_one(pool)
        .await
        .map(|count| count > 0)
    })
}
