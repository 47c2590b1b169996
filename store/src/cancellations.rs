//! Cancellation requests after assignment: either party asks to cancel, the
//! other accepts or declines (or silence lapses into acceptance), and an
//! accepted one cancels the task and refunds the escrow.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::{CancellationAttribution, CancellationStatus};

use crate::{
    added_charges::{close_open_increases, refund_added_charges},
    db::InTransaction,
    ledger::insert_ledger_entry,
    provider_calls::insert_provider_call,
};
use crate::{
    close_pending_reschedules,
    db::{BeginWrite, Db, Timestamp, new_id},
    insert_notification,
    ledger::LedgerEntry,
    notifications::NotificationRow,
    on_pool,
    payments::{PAYMENT_COLUMNS, PaymentRow},
    provider_calls::NewProviderCall,
};

/// Closes a cancellation request nobody answered once the task moved on another way.
macro_rules! close_pending_cancellation {
    ($tx:expr, $task_id:expr, $now:expr) => {
        sqlx::query(
            "update cancellation_requests set status = 'closed', answered_at = $2
             where task_id = $1 and status = 'pending'",
        )
        .bind($task_id)
        .bind($now)
        .execute(&mut *$tx)
        .await
    };
}
pub(crate) use close_pending_cancellation;

#[derive(Clone, Debug, FromRow)]
pub struct CancellationRow {
    pub id: Uuid,
    pub task_id: Uuid,
    pub requested_by: Uuid,
    pub reason: String,
    /// The reason from the fixed list (`other` for requests made before the list).
    pub reason_code: Option<String>,
    #[sqlx(try_from = "String")]
    pub status: CancellationStatus,
    pub created_at: Timestamp,
    pub answered_at: Option<Timestamp>,
}

const CANCELLATION_COLUMNS: &str = "id, task_id, requested_by, reason, reason_code, status, created_at, answered_at";

#[derive(Debug, thiserror::Error)]
pub enum CancellationError {
    #[error("the task cannot be cancelled in its current state")]
    WrongState,
    #[error("a cancellation request is already waiting for an answer")]
    AlreadyRequested,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// Opens a cancellation request on an assigned task with the other party's
/// notification. A poster who asked before is refused (`WrongState`) here too,
/// so two requests racing past the caller's check cannot both be written.
#[instrument(skip_all)]
pub async fn request_cancellation(
    db: &Db,
    task_id: Uuid,
    requested_by: Uuid,
    reason: &str,
    reason_code: &str,
    notification: &NotificationRow,
    now: Timestamp,
) -> Result<CancellationRow, CancellationError> {
    let id = new_id();
    let result: Result<Option<CancellationRow>, sqlx::Error> = on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let row = sqlx::query_as::<_, CancellationRow>(sqlx::AssertSqlSafe(format!(
                "insert into cancellation_requests (id, task_id, requested_by, reason, status, created_at, reason_code)
                 select $1, $2, $3, $4, 'pending', $5, $6
                 where exists (select 1 from tasks where id = $2 and status in ('assigned', 'completion_requested')
                                                   and open_dispute_id is null)
                   and not exists (select 1 from cancellation_requests c join tasks t on t.id = c.task_id
                                   where c.task_id = $2 and c.requested_by = $3 and t.poster_id = $3)
                 returning {CANCELLATION_COLUMNS}"
            )))
            .bind(id)
            .bind(task_id)
            .bind(requested_by)
            .bind(reason)
            .bind(now)
            .bind(reason_code)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = row else { return Ok(None) };
            insert_notification!(tx, notification)?;
            tx.commit().await?;
            Ok(Some(row))
        }
        .await
    });
    match result {
        Ok(Some(row)) => Ok(row),
        Ok(None) => Err(CancellationError::WrongState),
        Err(error) if crate::db::is_unique_violation(&error) => Err(CancellationError::AlreadyRequested),
        Err(error) => Err(error.into()),
    }
}

/// Whether the task's poster has asked to cancel it before (answered or not).
#[instrument(skip_all)]
pub async fn poster_asked_to_cancel(db: &Db, task_id: Uuid) -> sqlx::Result<bool> {
    let asked: i64 = on_pool!(db, |pool| {
        sqlx::query_scalar(
            "select count(*) from cancellation_requests c join tasks t on t.id = c.task_id
             where c.task_id = $1 and c.requested_by = t.poster_id",
        )
        .bind(task_id)
        .fetch_one(pool)
        .await
    })?;
    Ok(asked > 0)
}

#[instrument(skip_all)]
pub async fn pending_cancellation(db: &Db, task_id: Uuid) -> sqlx::Result<Option<CancellationRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, CancellationRow>(sqlx::AssertSqlSafe(format!(
            "select {CANCELLATION_COLUMNS} from cancellation_requests where task_id = $1 and status = 'pending'"
        )))
        .bind(task_id)
        .fetch_optional(pool)
        .await
    })
}

/// Requests unanswered since before `cutoff` (48 h): the sweep cancels their tasks.
#[instrument(skip_all)]
pub async fn cancellations_lapsed(db: &Db, cutoff: Timestamp, limit: i64) -> sqlx::Result<Vec<CancellationRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, CancellationRow>(sqlx::AssertSqlSafe(format!(
            "select {CANCELLATION_COLUMNS} from cancellation_requests where status = 'pending' and created_at <= $1
             order by created_at limit $2"
        )))
        .bind(cutoff)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// The answer to a cancellation request: declined, accepted, or lapsed (accepted by silence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Accept,
    Decline,
    Lapse,
}

/// Answers the pending request `request_id`. Accepting (or lapsing) cancels
/// the task and refunds its held payment with a refund ledger row. `None`
/// when that request is no longer pending. `notices` composes what the
/// parties are told, given what was refunded (cents with the increases, and
/// the currency) when a held payment was.
#[instrument(skip_all)]
pub async fn answer_cancellation<F>(
    db: &Db,
    request: &CancellationRow,
    answer: Answer,
    attributed_to: CancellationAttribution,
    notices: &F,
    now: Timestamp,
) -> sqlx::Result<Option<(Option<PaymentRow>, Vec<NotificationRow>)>>
where
    F: Fn(Option<(i64, &str)>) -> Vec<NotificationRow> + Sync,
{
    let new_status = match answer {
        Answer::Accept => CancellationStatus::Accepted,
        Answer::Decline => CancellationStatus::Declined,
        Answer::Lapse => CancellationStatus::Lapsed,
    };
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            if answer != Answer::Decline {
                // Silence never refunds a poster once the tasker has asked to be paid:
                // that lapse becomes a dispute instead (`store::disputes::escalate_cancellation`).
                let cancelled = sqlx::query(
                    "update tasks set status = 'cancelled', cancelled_at = $2, updated_at = $2,
                                      cancellation_reason = $5, cancellation_attributed_to = $6
                     where id = $1 and status in ('assigned', 'completion_requested') and open_dispute_id is null
                       and ($3 = false or status = 'assigned' or poster_id <> $4)",
                )
                .bind(request.task_id)
                .bind(now)
                .bind(answer == Answer::Lapse)
                .bind(request.requested_by)
                .bind(request.reason_code.as_deref().unwrap_or("other"))
                .bind(attributed_to.as_str())
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if cancelled == 0 {
                    let live: i64 = sqlx::query_scalar(
                        "select count(*) from tasks where id = $1 and status in ('assigned', 'completion_requested')
                                                      and open_dispute_id is null",
                    )
                    .bind(request.task_id)
                    .fetch_one(&mut *tx)
                    .await?;
                    if live == 0 {
                        // The task moved on (completed, or disputed): nobody can answer this request any more.
                        close_pending_cancellation!(tx, request.task_id, now)?;
                        tx.commit().await?;
                    }
                    return Ok(None);
                }
            }
            let answered = sqlx::query(
                "update cancellation_requests set status = $2, answered_at = $3 where id = $1 and status = 'pending'",
            )
            .bind(request.id)
            .bind(new_status.as_str())
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if answered == 0 {
                return Ok(None);
            }
            let mut refunded = None;
            let mut added_cents = 0;
            if answer != Answer::Decline {
                refunded = sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(format!(
                    "update payments set status = 'refunded', refund_reason = 'task cancelled', refunded_at = $2,
                                         updated_at = $2, refunded_cents = amount_cents
                     where task_id = $1 and status = 'held' and parent_payment_id is null
                     returning {PAYMENT_COLUMNS}"
                )))
                .bind(request.task_id)
                .bind(now)
                .fetch_optional(&mut *tx)
                .await?;
                close_open_increases(tx.conn(), request.task_id, now).await?;
                close_pending_reschedules!(tx, request.task_id, now)?;
                let added = refund_added_charges(tx.conn(), request.task_id, "task cancelled", now).await?;
                added_cents = added.iter().map(|charge| charge.amount_cents).sum::<i64>();
                if let Some(payment) = &refunded {
                    insert_ledger_entry(tx.conn(), &LedgerEntry::refund_of(payment, now)).await?;
                    insert_provider_call(tx.conn(), &NewProviderCall::refund_of(payment, now)).await?;
                }
            }
            let refund =
                refunded.as_ref().map(|payment| (payment.amount_cents + added_cents, payment.currency.as_str()));
            let notifications = notices(refund);
            for row in &notifications {
                insert_notification!(tx, row)?;
            }
            tx.commit().await?;
            Ok(Some((refunded, notifications)))
        }
        .await
    })
}
