//! Read receipts (how far each party of a task has read) and the privacy choices that decide
//! whether the other party sees them and one's online state.

use serde::{Deserialize, Serialize};
use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp},
    on_pool,
};

/// What a user shares with the other party of their tasks. Without a row: both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Privacy {
    pub share_online: bool,
    pub share_read_receipts: bool,
}

impl Default for Privacy {
    fn default() -> Self {
        Self { share_online: true, share_read_receipts: true }
    }
}

#[instrument(skip_all)]
pub async fn privacy(db: &Db, user_id: Uuid) -> sqlx::Result<Privacy> {
    let row = on_pool!(db, |pool| {
        sqlx::query_as::<_, (bool, bool)>(
            "select share_online, share_read_receipts from privacy_settings where user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(pool)
        .await
    })?;
    Ok(row.map_or_else(Privacy::default, |(share_online, share_read_receipts)| Privacy {
        share_online,
        share_read_receipts,
    }))
}

#[instrument(skip_all)]
pub async fn save_privacy(db: &Db, user_id: Uuid, privacy: Privacy, now: Timestamp) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query(
            "insert into privacy_settings (user_id, share_online, share_read_receipts, updated_at)
             values ($1, $2, $3, $4)
             on conflict (user_id) do update set share_online = excluded.share_online,
                 share_read_receipts = excluded.share_read_receipts, updated_at = excluded.updated_at",
        )
        .bind(user_id)
        .bind(privacy.share_online)
        .bind(privacy.share_read_receipts)
        .bind(now)
        .execute(pool)
        .await
        .map(|_| ())
    })
}

/// The sender of message `id` when it belongs to the task's conversation.
#[instrument(skip_all)]
pub async fn message_sender(db: &Db, task_id: Uuid, id: Uuid) -> sqlx::Result<Option<Uuid>> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, Uuid>("select sender_id from messages where id = $1 and task_id = $2")
            .bind(id)
            .bind(task_id)
            .fetch_optional(pool)
            .await
    })
}

/// Moves the user's read mark forward to `up_to`; true when it moved (an older mark never
/// replaces a newer one: ids are UUIDv7, ordered by time).
#[instrument(skip_all)]
pub async fn mark_read(db: &Db, task_id: Uuid, user_id: Uuid, up_to: Uuid, at: Timestamp) -> sqlx::Result<bool> {
    let result = on_pool!(db, |pool| {
        sqlx::query(
            "insert into message_reads (task_id, user_id, up_to, read_at) values ($1, $2, $3, $4)
             on conflict (task_id, user_id) do update set up_to = excluded.up_to, read_at = excluded.read_at
             where message_reads.up_to < excluded.up_to",
        )
        .bind(task_id)
        .bind(user_id)
        .bind(up_to)
        .bind(at)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(result > 0)
}

/// How far the user has read the task's conversation.
#[instrument(skip_all)]
pub async fn read_up_to(db: &Db, task_id: Uuid, user_id: Uuid) -> sqlx::Result<Option<(Uuid, Timestamp)>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, (Uuid, Timestamp)>(
            "select up_to, read_at from message_reads where task_id = $1 and user_id = $2",
        )
        .bind(task_id)
        .bind(user_id)
        .fetch_optional(pool)
        .await
    })
}
