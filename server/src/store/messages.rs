//! Private messages between a task's poster and its assigned tasker.

use serde::Serialize;
use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{BeginWrite, Db, Timestamp},
    insert_notification, on_pool,
    store::notifications::NotificationRow,
};

#[derive(Clone, Debug, FromRow, Serialize, utoipa::ToSchema)]
pub struct MessageRow {
    pub id: Uuid,
    pub task_id: Uuid,
    pub sender_id: Uuid,
    pub recipient_id: Uuid,
    /// Null once a moderator removed it (the text is kept for the audit).
    pub body: Option<String>,
    pub removed: bool,
    pub created_at: Timestamp,
}

/// Stores the message and the recipient's notification together.
#[instrument(skip_all)]
pub async fn insert_message(db: &Db, message: &MessageRow, notification: &NotificationRow) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            sqlx::query(
                "insert into messages (id, task_id, sender_id, recipient_id, body, created_at)
                 values ($1, $2, $3, $4, $5, $6)",
            )
            .bind(message.id)
            .bind(message.task_id)
            .bind(message.sender_id)
            .bind(message.recipient_id)
            .bind(&message.body)
            .bind(message.created_at)
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
                    removed_at is not null as removed, created_at from messages
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
