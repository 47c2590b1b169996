//! Reschedules: either party of an assigned task proposes a new due date, the
//! other accepts (the task's due date changes) or declines within 48 hours,
//! else the proposal lapses and nothing changes. One pending per task.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::RescheduleStatus;

use crate::{
    db::{BeginWrite, Db, Timestamp},
    insert_notification,
    notifications::NotificationRow,
    on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct RescheduleRow {
    pub id: Uuid,
    pub task_id: Uuid,
    pub proposed_by: Uuid,
    /// `YYYY-MM-DD`.
    pub due_date: String,
    /// A time window on that day, as the proposer wrote it ("8am–12pm").
    pub time_window: Option<String>,
    pub note: Option<String>,
    #[sqlx(try_from = "String")]
    pub status: RescheduleStatus,
    pub expires_at: Timestamp,
    pub created_at: Timestamp,
    pub answered_at: Option<Timestamp>,
}

const RESCHEDULE_COLUMNS: &str =
    "id, task_id, proposed_by, due_date, time_window, note, status, expires_at, created_at, answered_at";

/// Closes the task's pending proposal when the task moves on (released, cancelled, disputed).
#[macro_export]
macro_rules! close_pending_reschedules {
    ($tx:expr, $task_id:expr, $now:expr) => {
        sqlx::query(
            "update reschedules set status = 'closed', answered_at = $2 where task_id = $1 and status = 'pending'",
        )
        .bind($task_id)
        .bind($now)
        .execute(&mut *$tx)
        .await
    };
}

pub struct NewReschedule<'a> {
    pub id: Uuid,
    pub task_id: Uuid,
    pub proposed_by: Uuid,
    pub due_date: &'a str,
    pub time_window: Option<&'a str>,
    pub note: Option<&'a str>,
    pub expires_at: Timestamp,
}

#[derive(Debug, thiserror::Error)]
pub enum RescheduleError {
    #[error("the task is not assigned, or is disputed")]
    WrongState,
    #[error("another proposal is waiting for an answer")]
    AlreadyPending,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// Records a party's proposal on an assigned task that is not disputed, with the other party's notification.
#[instrument(skip_all)]
pub async fn propose(
    db: &Db,
    proposal: &NewReschedule<'_>,
    notification: &NotificationRow,
    now: Timestamp,
) -> Result<RescheduleRow, RescheduleError> {
    let result: Result<Option<RescheduleRow>, sqlx::Error> = on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let live = sqlx::query(
                "update tasks set updated_at = updated_at
                 where id = $1 and (poster_id = $2 or assigned_tasker_id = $2) and status = 'assigned'
                   and open_dispute_id is null",
            )
            .bind(proposal.task_id)
            .bind(proposal.proposed_by)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if live == 0 {
                return Ok(None);
            }
            let row = sqlx::query_as::<_, RescheduleRow>(sqlx::AssertSqlSafe(format!(
                "insert into reschedules (id, task_id, proposed_by, due_date, time_window, note, status, expires_at, created_at)
                 values ($1, $2, $3, $4, $5, $6, 'pending', $7, $8)
                 returning {RESCHEDULE_COLUMNS}"
            )))
            .bind(proposal.id)
            .bind(proposal.task_id)
            .bind(proposal.proposed_by)
            .bind(proposal.due_date)
            .bind(proposal.time_window)
            .bind(proposal.note)
            .bind(proposal.expires_at)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            insert_notification!(tx, notification)?;
            tx.commit().await?;
            Ok(Some(row))
        }
        .await
    });
    match result {
        Ok(Some(row)) => Ok(row),
        Ok(None) => Err(RescheduleError::WrongState),
        Err(error) if crate::db::is_unique_violation(&error) => Err(RescheduleError::AlreadyPending),
        Err(error) => Err(error.into()),
    }
}

#[instrument(skip_all)]
pub async fn reschedule(db: &Db, id: Uuid) -> sqlx::Result<Option<RescheduleRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, RescheduleRow>(sqlx::AssertSqlSafe(format!(
            "select {RESCHEDULE_COLUMNS} from reschedules where id = $1"
        )))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

#[instrument(skip_all)]
pub async fn for_task(db: &Db, task_id: Uuid) -> sqlx::Result<Vec<RescheduleRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, RescheduleRow>(sqlx::AssertSqlSafe(format!(
            "select {RESCHEDULE_COLUMNS} from reschedules where task_id = $1 order by created_at, id"
        )))
        .bind(task_id)
        .fetch_all(pool)
        .await
    })
}

/// Pending proposals past their 48 hours, oldest first.
#[instrument(skip_all)]
pub async fn lapsed(db: &Db, now: Timestamp, limit: i64) -> sqlx::Result<Vec<RescheduleRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, RescheduleRow>(sqlx::AssertSqlSafe(format!(
            "select {RESCHEDULE_COLUMNS} from reschedules where status = 'pending' and expires_at <= $1
             order by expires_at limit $2"
        )))
        .bind(now)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// `accepted`, `declined` (both within the 48 hours) or `lapsed` (after them).
/// Accepting moves the task's due date, while the task is still assigned or
/// waiting for release. The answered row, or `None` when it was no longer
/// pending (or the task moved on).
#[instrument(skip_all)]
pub async fn answer(
    db: &Db,
    proposal: &RescheduleRow,
    new_status: RescheduleStatus,
    notification: &NotificationRow,
    now: Timestamp,
) -> sqlx::Result<Option<RescheduleRow>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let moved = sqlx::query(
                "update tasks set due_date = case when $2 = 'accepted' then $3 else due_date end,
                                  updated_at = case when $2 = 'accepted' then $4 else updated_at end
                 where id = $1 and ($2 <> 'accepted' or status in ('assigned', 'completion_requested'))",
            )
            .bind(proposal.task_id)
            .bind(new_status.as_str())
            .bind(&proposal.due_date)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 0 {
                return Ok(None);
            }
            let row = sqlx::query_as::<_, RescheduleRow>(sqlx::AssertSqlSafe(format!(
                "update reschedules set status = $2, answered_at = $3
                 where id = $1 and status = 'pending'
                   and (case when $2 = 'lapsed' then expires_at <= $3 else expires_at > $3 end)
                 returning {RESCHEDULE_COLUMNS}"
            )))
            .bind(proposal.id)
            .bind(new_status.as_str())
            .bind(now)
            .fetch_optional(&mut *tx)
            .await?;
            if row.is_none() {
                // Dropping the transaction undoes the task's new date.
                return Ok(None);
            }
            insert_notification!(tx, notification)?;
            tx.commit().await?;
            Ok(row)
        }
        .await
    })
}

/// What waits for an answer on the tasks `user_id` is a party to: `(task_id, what)` with `what`
/// `price_increase` or `reschedule` (My Tasks shows them as badges).
#[instrument(skip_all)]
pub async fn pending_changes_for(db: &Db, user_id: Uuid) -> sqlx::Result<Vec<(Uuid, String)>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, (Uuid, String)>(
            "select i.task_id, 'price_increase' from price_increases i join tasks t on t.id = i.task_id
             where i.status = 'pending' and (t.poster_id = $1 or t.assigned_tasker_id = $1)
             union all
             select r.task_id, 'reschedule' from reschedules r join tasks t on t.id = r.task_id
             where r.status = 'pending' and (t.poster_id = $1 or t.assigned_tasker_id = $1)",
        )
        .bind(user_id)
        .fetch_all(pool)
        .await
    })
}
