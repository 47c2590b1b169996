//! Users' channel choices per notification kind (only those differing from
//! `store::notifications::default_enabled` need rows, but saving writes them all).

use tracing::instrument;
use uuid::Uuid;

use model::states::NotificationKind;

use crate::{
    db::{BeginWrite, Db},
    notifications::EMAIL,
    on_pool,
};

/// The user's stored `(channel, kind, enabled)` choices.
#[instrument(skip_all)]
pub async fn overrides(db: &Db, user_id: Uuid) -> sqlx::Result<Vec<(String, String, bool)>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, (String, String, bool)>(
            "select channel, kind, enabled from notification_preferences where user_id = $1",
        )
        .bind(user_id)
        .fetch_all(pool)
        .await
    })
}

/// Stores each `(channel, kind, enabled)` choice given.
#[instrument(skip_all)]
pub async fn save(db: &Db, user_id: Uuid, choices: &[(&str, NotificationKind, bool)]) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            for (channel, kind, enabled) in choices {
                sqlx::query(
                    "insert into notification_preferences (user_id, channel, kind, enabled) values ($1, $2, $3, $4)
                     on conflict (user_id, channel, kind) do update set enabled = excluded.enabled",
                )
                .bind(user_id)
                .bind(*channel)
                .bind((*kind).as_str())
                .bind(*enabled)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await
        }
        .await
    })
}

/// One-click unsubscribe: no more email of any kind.
pub async fn turn_off_email(db: &Db, user_id: Uuid) -> sqlx::Result<()> {
    let choices: Vec<_> = NotificationKind::ALL.iter().map(|kind| (EMAIL, *kind, false)).collect();
    save(db, user_id, &choices).await
}
