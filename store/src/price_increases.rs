//! Price increases: the tasker of an assigned task asks for more, the poster
//! approves (a checkout of the difference, a payment row whose parent is the
//! task's payment) or declines, and the paid difference joins the escrow.
//! Every transition locks the task's row first, like the escrow's, so an
//! approval, a payment, a release, a cancellation and a dispute of one task
//! queue on it and exactly one of two conflicting ones wins.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::{PaymentPurpose, PaymentStatus, PriceIncreaseStatus};

use crate::{
    db::{BeginWrite, Db, InTransaction, Timestamp},
    escrow::{NewPayment, insert_pending_payment, lock_task},
    insert_notification,
    ledger::LedgerEntry,
    notifications::NotificationRow,
    on_pool,
    payments::PaymentRow,
    provider_calls::NewProviderCall,
};
use crate::{ledger::insert_ledger_entry, provider_calls::insert_provider_call};

#[derive(Clone, Debug, FromRow)]
pub struct PriceIncreaseRow {
    pub id: Uuid,
    pub task_id: Uuid,
    pub tasker_id: Uuid,
    pub amount_cents: i64,
    pub reason: String,
    #[sqlx(try_from = "String")]
    pub status: PriceIncreaseStatus,
    pub payment_id: Option<Uuid>,
    pub decline_reason: Option<String>,
    pub expires_at: Timestamp,
    pub created_at: Timestamp,
    pub answered_at: Option<Timestamp>,
}

const INCREASE_COLUMNS: &str = "id, task_id, tasker_id, amount_cents, reason, status, payment_id, decline_reason, expires_at, created_at, answered_at";

pub struct NewIncrease<'a> {
    pub id: Uuid,
    pub task_id: Uuid,
    pub tasker_id: Uuid,
    pub amount_cents: i64,
    pub reason: &'a str,
    pub expires_at: Timestamp,
    /// The most the task's increases may add up to (paid ones and this one).
    pub cap_cents: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum IncreaseError {
    #[error("the task is not assigned to this tasker, or is disputed or waiting for release")]
    WrongState,
    #[error("another price increase is waiting for an answer")]
    AlreadyPending,
    #[error("the increases would add up to more than the cap")]
    OverCap,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// Records a tasker's increase on their assigned task (not disputed, not
/// waiting for release) with the poster's notification, when the task's
/// increases stay within the cap.
#[instrument(skip_all)]
pub async fn create(
    db: &Db,
    increase: &NewIncrease<'_>,
    notification: &NotificationRow,
    now: Timestamp,
) -> Result<PriceIncreaseRow, IncreaseError> {
    let result: Result<Result<PriceIncreaseRow, IncreaseError>, sqlx::Error> = on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let live = sqlx::query(
                "update tasks set updated_at = updated_at
                 where id = $1 and assigned_tasker_id = $2 and status = 'assigned' and open_dispute_id is null",
            )
            .bind(increase.task_id)
            .bind(increase.tasker_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if live == 0 {
                return Ok(Err(IncreaseError::WrongState));
            }
            let asked: i64 = sqlx::query_scalar(
                "select cast(coalesce(sum(amount_cents), 0) as bigint) from price_increases
                 where task_id = $1 and status in ('pending', 'approved', 'paid')",
            )
            .bind(increase.task_id)
            .fetch_one(&mut *tx)
            .await?;
            if asked + increase.amount_cents > increase.cap_cents {
                return Ok(Err(IncreaseError::OverCap));
            }
            let row = sqlx::query_as::<_, PriceIncreaseRow>(sqlx::AssertSqlSafe(format!(
                "insert into price_increases (id, task_id, tasker_id, amount_cents, reason, status, expires_at, created_at)
                 values ($1, $2, $3, $4, $5, 'pending', $6, $7)
                 returning {INCREASE_COLUMNS}"
            )))
            .bind(increase.id)
            .bind(increase.task_id)
            .bind(increase.tasker_id)
            .bind(increase.amount_cents)
            .bind(increase.reason)
            .bind(increase.expires_at)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            insert_notification!(tx, notification)?;
            tx.commit().await?;
            Ok(Ok(row))
        }
        .await
    });
    match result {
        Ok(outcome) => outcome,
        Err(error) if crate::db::is_unique_violation(&error) => Err(IncreaseError::AlreadyPending),
        Err(error) => Err(error.into()),
    }
}

#[instrument(skip_all)]
pub async fn increase(db: &Db, id: Uuid) -> sqlx::Result<Option<PriceIncreaseRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PriceIncreaseRow>(sqlx::AssertSqlSafe(format!(
            "select {INCREASE_COLUMNS} from price_increases where id = $1"
        )))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

#[instrument(skip_all)]
pub async fn for_task(db: &Db, task_id: Uuid) -> sqlx::Result<Vec<PriceIncreaseRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PriceIncreaseRow>(sqlx::AssertSqlSafe(format!(
            "select {INCREASE_COLUMNS} from price_increases where task_id = $1 order by created_at, id"
        )))
        .bind(task_id)
        .fetch_all(pool)
        .await
    })
}

/// The increase whose checkout is `payment_id`.
#[instrument(skip_all)]
pub async fn by_payment(db: &Db, payment_id: Uuid) -> sqlx::Result<Option<PriceIncreaseRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PriceIncreaseRow>(sqlx::AssertSqlSafe(format!(
            "select {INCREASE_COLUMNS} from price_increases where payment_id = $1"
        )))
        .bind(payment_id)
        .fetch_optional(pool)
        .await
    })
}

/// The poster approves a pending increase: it becomes `approved` and its
/// checkout is recorded as a payment whose parent is the task's held payment —
/// while the task is assigned (or waiting for release), not disputed, and the
/// increase not expired. False otherwise (the caller expires the session).
#[instrument(skip_all)]
pub async fn approve(
    db: &Db,
    increase_id: Uuid,
    payment: &NewPayment<'_>,
    parent_payment_id: Uuid,
    now: Timestamp,
) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let live = sqlx::query(
                "update tasks set updated_at = updated_at
                 where id = $1 and poster_id = $2 and status in ('assigned', 'completion_requested')
                   and open_dispute_id is null
                   and exists (select 1 from payments where id = $3 and task_id = $1 and status = 'held')",
            )
            .bind(payment.task_id)
            .bind(payment.poster_id)
            .bind(parent_payment_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if live == 0 {
                return Ok(false);
            }
            insert_pending_payment(tx.conn(), payment, PaymentPurpose::Increase, Some(parent_payment_id), now).await?;
            let approved = sqlx::query(
                "update price_increases set status = 'approved', payment_id = $2, answered_at = $3
                 where id = $1 and task_id = $4 and status = 'pending' and expires_at > $3 and amount_cents = $5",
            )
            .bind(increase_id)
            .bind(payment.id)
            .bind(now)
            .bind(payment.task_id)
            .bind(payment.amount_cents)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if approved == 0 {
                // Dropping the transaction rolls the payment row back.
                return Ok(false);
            }
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}

/// The poster declines a pending increase (with an optional reason). The
/// declined row, or `None` when it was no longer pending.
#[instrument(skip_all)]
pub async fn decline(
    db: &Db,
    increase: &PriceIncreaseRow,
    reason: Option<&str>,
    notification: &NotificationRow,
    now: Timestamp,
) -> sqlx::Result<Option<PriceIncreaseRow>> {
    answer(db, increase, PriceIncreaseStatus::Declined, reason, Some(notification), now).await
}

/// Lapses a pending increase nobody answered by its `expires_at` (the sweep).
#[instrument(skip_all)]
pub async fn lapse(
    db: &Db,
    increase: &PriceIncreaseRow,
    notification: &NotificationRow,
    now: Timestamp,
) -> sqlx::Result<Option<PriceIncreaseRow>> {
    answer(db, increase, PriceIncreaseStatus::Lapsed, None, Some(notification), now).await
}

async fn answer(
    db: &Db,
    increase: &PriceIncreaseRow,
    new_status: PriceIncreaseStatus,
    reason: Option<&str>,
    notification: Option<&NotificationRow>,
    now: Timestamp,
) -> sqlx::Result<Option<PriceIncreaseRow>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            lock_task(tx.conn(), increase.task_id).await?;
            let row = sqlx::query_as::<_, PriceIncreaseRow>(sqlx::AssertSqlSafe(format!(
                "update price_increases set status = $2, decline_reason = $3, answered_at = $4
                 where id = $1 and status = 'pending' and ($2 <> 'lapsed' or expires_at <= $4)
                 returning {INCREASE_COLUMNS}"
            )))
            .bind(increase.id)
            .bind(new_status.as_str())
            .bind(reason)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await?;
            if row.is_none() {
                return Ok(None);
            }
            if let Some(notification) = notification {
                insert_notification!(tx, notification)?;
            }
            tx.commit().await?;
            Ok(row)
        }
        .await
    })
}

/// Pending increases past their 72 hours, oldest first (the sweep lapses them).
#[instrument(skip_all)]
pub async fn lapsed(db: &Db, now: Timestamp, limit: i64) -> sqlx::Result<Vec<PriceIncreaseRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PriceIncreaseRow>(sqlx::AssertSqlSafe(format!(
            "select {INCREASE_COLUMNS} from price_increases where status = 'pending' and expires_at <= $1
             order by expires_at limit $2"
        )))
        .bind(now)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// What confirming a paid checkout of an increase did.
#[derive(Debug)]
pub enum IncreaseConfirmation {
    /// The difference joined the escrow: payment held, increase paid.
    Paid { notifications: Vec<NotificationRow> },
    /// The escrow ended first (released, cancelled, disputed): the charge is refunded.
    Refunded { notifications: Vec<NotificationRow> },
    /// Someone confirmed or ended this payment already.
    Unchanged,
}

/// Confirms the increase's checkout the provider reports paid. Idempotent. The
/// increase must still be `approved` (release, cancellation and disputes close
/// it under the task's lock); otherwise the charge is recorded and refunded.
#[instrument(skip_all)]
pub async fn confirm_paid(
    db: &Db,
    payment: &PaymentRow,
    charge_ref: Option<&str>,
    payment_intent: Option<&str>,
    paid: &[NotificationRow],
    refunded: &[NotificationRow],
    now: Timestamp,
) -> sqlx::Result<IncreaseConfirmation> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            lock_task(tx.conn(), payment.task_id).await?;
            let joined = sqlx::query(
                "update price_increases set status = 'paid'
                 where payment_id = $1 and status = 'approved'
                   and exists (select 1 from payments where id = $1 and status in ('pending', 'processing'))",
            )
            .bind(payment.id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            let (new_status, notifications) = if joined == 1 { ("held", paid) } else { ("refunded", refunded) };
            let moved = sqlx::query(
                "update payments set status = $2, charge_ref = $3, payment_intent = coalesce($4, payment_intent),
                                     held_at = case when $2 = 'held' then $5 end, updated_at = $5, next_check_at = null,
                                     refunded_at = case when $2 = 'refunded' then $5 end,
                                     refunded_cents = case when $2 = 'refunded' then amount_cents else 0 end,
                                     refund_reason = case when $2 = 'refunded' then 'price increase closed' end,
                                     completion_requested_at = (select parent.completion_requested_at from payments parent
                                                                where parent.id = payments.parent_payment_id)
                 where id = $1 and status in ('pending', 'processing')",
            )
            .bind(payment.id)
            .bind(new_status)
            .bind(charge_ref)
            .bind(payment_intent)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 0 {
                return Ok(IncreaseConfirmation::Unchanged);
            }
            insert_ledger_entry(tx.conn(), &LedgerEntry::charge_of(payment, charge_ref, now)).await?;
            if joined == 0 {
                insert_ledger_entry(tx.conn(), &LedgerEntry::refund_of(payment, now)).await?;
                insert_provider_call(tx.conn(), &NewProviderCall::refund_of(payment, now)).await?;
            }
            for notification in notifications {
                insert_notification!(tx, notification)?;
            }
            tx.commit().await?;
            let notifications = notifications.to_vec();
            Ok(if joined == 1 {
                IncreaseConfirmation::Paid { notifications }
            } else {
                IncreaseConfirmation::Refunded { notifications }
            })
        }
        .await
    })
}

/// An added charge's checkout (an increase's or a tip's) ended unpaid
/// (expired, or a late-settling payment failed): the payment ends
/// `new_status`, and an increase still `approved` goes back to `pending`, for
/// the poster to approve again before it lapses. True when this call ended it.
#[instrument(skip_all)]
pub async fn end_unpaid(
    db: &Db,
    payment: &PaymentRow,
    new_status: PaymentStatus,
    notification: Option<&NotificationRow>,
    now: Timestamp,
) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            lock_task(tx.conn(), payment.task_id).await?;
            let ended = sqlx::query(
                "update payments set status = $2, next_check_at = null, updated_at = $3
                 where id = $1 and (status = 'pending' or ($2 = 'failed' and status = 'processing'))",
            )
            .bind(payment.id)
            .bind(new_status.as_str())
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if ended == 0 {
                return Ok(false);
            }
            sqlx::query(
                "update price_increases set status = 'pending', payment_id = null, answered_at = null
                 where payment_id = $1 and status = 'approved'",
            )
            .bind(payment.id)
            .execute(&mut *tx)
            .await?;
            if let Some(notification) = notification {
                insert_notification!(tx, notification)?;
            }
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}
