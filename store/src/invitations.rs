//! Posters inviting taskers to their open tasks.

use tracing::instrument;

use crate::{
    db::{BeginWrite, Db, is_unique_violation},
    insert_notification,
    notifications::NotificationRow,
    on_pool,
};

/// Records the invitation and the tasker's notification together; false when
/// this tasker was already invited to this task.
#[instrument(skip_all)]
pub async fn insert_invitation(
    db: &Db,
    task_id: uuid::Uuid,
    invited_by: uuid::Uuid,
    notification: &NotificationRow,
) -> sqlx::Result<bool> {
    let result: sqlx::Result<()> = on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            sqlx::query(
                "insert into task_invitations (task_id, tasker_id, invited_by, created_at) values ($1, $2, $3, $4)",
            )
            .bind(task_id)
            .bind(notification.user_id)
            .bind(invited_by)
            .bind(notification.created_at)
            .execute(&mut *tx)
            .await?;
            insert_notification!(tx, notification)?;
            tx.commit().await
        }
        .await
    });
    match result {
        Ok(()) => Ok(true),
        Err(error) if is_unique_violation(&error) => Ok(false),
        Err(error) => Err(error),
    }
}
