//! Disputes: either party stops the clock on an assigned task's escrow until
//! an operator decides, and so does a poster's cancellation request nobody
//! answered after the tasker asked to be paid. Opening one marks the task (`tasks.open_dispute_id`),
//! which auto-release, the cancellation lapse, payment requests and new
//! cancellation requests all check under the task's row lock. The decisions
//! that refund live here; releasing in full is `store::release::release`.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::{
    payments::fees::{fee_cents, payout_cents},
    states::{DisputeOutcome, DisputeReason, DisputeStatus, LedgerKind, ProviderCallKind},
};

use crate::{
    added_charges::close_open_increases, db::InTransaction, ledger::insert_ledger_entry,
    provider_calls::insert_provider_call,
};
use crate::{
    cancellations::close_pending_cancellation,
    close_pending_reschedules,
    db::{BeginWrite, Db, Timestamp},
    insert_notification,
    ledger::LedgerEntry,
    notifications::NotificationRow,
    on_pool,
    payments::{PAYMENT_COLUMNS, PaymentRow},
    provider_calls::NewProviderCall,
    release::{Decision, resolve_open_dispute},
};

#[derive(Clone, Debug, FromRow)]
pub struct DisputeRow {
    pub id: Uuid,
    pub task_id: Uuid,
    pub payment_id: Uuid,
    pub opened_by: Uuid,
    #[sqlx(try_from = "String")]
    pub reason: DisputeReason,
    pub message: String,
    #[sqlx(try_from = "String")]
    pub status: DisputeStatus,
    /// Once resolved (`outcome()`).
    #[sqlx(rename = "outcome")]
    pub outcome_text: Option<String>,
    pub refund_cents: Option<i64>,
    pub resolution_note: Option<String>,
    pub resolved_by: Option<Uuid>,
    /// Opened by the sweep from a poster's cancellation request left unanswered
    /// after the tasker asked to be paid (`message` is the request's reason).
    pub from_cancellation: bool,
    pub created_at: Timestamp,
    pub resolved_at: Option<Timestamp>,
}

impl DisputeRow {
    pub fn outcome(&self) -> Option<DisputeOutcome> {
        self.outcome_text.as_deref().and_then(DisputeOutcome::parse)
    }
}

const DISPUTE_COLUMNS: &str = "id, task_id, payment_id, opened_by, reason, message, status, outcome, refund_cents,
    resolution_note, resolved_by, (cancellation_request_id is not null) as from_cancellation, created_at, resolved_at";

pub struct NewDispute<'a> {
    pub id: Uuid,
    pub task_id: Uuid,
    /// The poster or the assigned tasker.
    pub opened_by: Uuid,
    pub reason: DisputeReason,
    pub message: &'a str,
}

/// Writes the dispute row against the task's held payment in `$tx`; the row, or an error when the
/// assigned task has no held payment.
macro_rules! insert_dispute {
    ($tx:expr, $dispute:expr, $cancellation_request_id:expr, $now:expr) => {{
        let dispute: &NewDispute = $dispute;
        let row = sqlx::query_as::<_, DisputeRow>(sqlx::AssertSqlSafe(format!(
            "insert into disputes (id, task_id, payment_id, opened_by, reason, message, status, created_at,
                                   cancellation_request_id)
             select $1, $2, id, $3, $4, $5, 'open', $6, $7 from payments
             where task_id = $2 and status = 'held' and parent_payment_id is null
             returning {DISPUTE_COLUMNS}"
        )))
        .bind(dispute.id)
        .bind(dispute.task_id)
        .bind(dispute.opened_by)
        .bind(dispute.reason.as_str())
        .bind(dispute.message)
        .bind($now)
        .bind($cancellation_request_id)
        .fetch_optional(&mut *$tx)
        .await?;
        row.ok_or_else(|| {
            sqlx::Error::Protocol(format!("task {} is assigned without a held payment", dispute.task_id))
        })?
    }};
}

/// Opens a dispute on an assigned task by one of its two parties and closes
/// any cancellation request waiting for an answer. `None` when the opener is
/// not a party, the task is not assigned, or it is already disputed.
#[instrument(skip_all)]
pub async fn open(
    db: &Db,
    dispute: &NewDispute<'_>,
    notifications: &[NotificationRow],
    now: Timestamp,
) -> sqlx::Result<Option<DisputeRow>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let marked = sqlx::query(
                "update tasks set open_dispute_id = $3, updated_at = $4
                 where id = $1 and (poster_id = $2 or assigned_tasker_id = $2)
                   and status in ('assigned', 'completion_requested') and open_dispute_id is null",
            )
            .bind(dispute.task_id)
            .bind(dispute.opened_by)
            .bind(dispute.id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if marked == 0 {
                return Ok(None);
            }
            let row = insert_dispute!(tx, dispute, None::<Uuid>, now);
            close_pending_cancellation!(tx, dispute.task_id, now)?;
            close_open_increases(tx.conn(), dispute.task_id, now).await?;
            close_pending_reschedules!(tx, dispute.task_id, now)?;
            for notification in notifications {
                insert_notification!(tx, notification)?;
            }
            tx.commit().await?;
            Ok(Some(row))
        }
        .await
    })
}

/// Turns the poster's cancellation request `request_id`, unanswered, into a
/// dispute opened in the poster's name (`dispute.opened_by`), on a task whose
/// tasker has asked to be paid. `None` when the request is no longer pending or
/// the task is no longer waiting for release.
#[instrument(skip_all)]
pub async fn escalate_cancellation(
    db: &Db,
    request_id: Uuid,
    dispute: &NewDispute<'_>,
    notifications: &[NotificationRow],
    now: Timestamp,
) -> sqlx::Result<Option<DisputeRow>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let marked = sqlx::query(
                "update tasks set open_dispute_id = $3, updated_at = $4
                 where id = $1 and poster_id = $2 and status = 'completion_requested' and open_dispute_id is null",
            )
            .bind(dispute.task_id)
            .bind(dispute.opened_by)
            .bind(dispute.id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            let closed = sqlx::query(
                "update cancellation_requests set status = 'closed', answered_at = $3
                 where id = $1 and task_id = $2 and status = 'pending'",
            )
            .bind(request_id)
            .bind(dispute.task_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if marked == 0 || closed == 0 {
                return Ok(None);
            }
            let row = insert_dispute!(tx, dispute, Some(request_id), now);
            close_open_increases(tx.conn(), dispute.task_id, now).await?;
            close_pending_reschedules!(tx, dispute.task_id, now)?;
            for notification in notifications {
                insert_notification!(tx, notification)?;
            }
            tx.commit().await?;
            Ok(Some(row))
        }
        .await
    })
}

#[instrument(skip_all)]
pub async fn dispute(db: &Db, id: Uuid) -> sqlx::Result<Option<DisputeRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, DisputeRow>(sqlx::AssertSqlSafe(format!(
            "select {DISPUTE_COLUMNS} from disputes where id = $1"
        )))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// The task's newest dispute, open or resolved.
#[instrument(skip_all)]
pub async fn latest_for_task(db: &Db, task_id: Uuid) -> sqlx::Result<Option<DisputeRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, DisputeRow>(sqlx::AssertSqlSafe(format!(
            "select {DISPUTE_COLUMNS} from disputes where task_id = $1 order by id desc limit 1"
        )))
        .bind(task_id)
        .fetch_optional(pool)
        .await
    })
}

/// The operators' queue: open disputes oldest first, resolved ones newest first.
#[instrument(skip_all)]
pub async fn queue(db: &Db, status: DisputeStatus, limit: i64) -> sqlx::Result<Vec<DisputeRow>> {
    let order = if status == DisputeStatus::Open { "created_at asc" } else { "resolved_at desc" };
    on_pool!(db, |pool| {
        sqlx::query_as::<_, DisputeRow>(sqlx::AssertSqlSafe(format!(
            "select {DISPUTE_COLUMNS} from disputes where status = $1 order by {order}, id limit $2"
        )))
        .bind(status.as_str())
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// An operator's decision to give the poster `refund_cents` back out of the
/// task's escrow (its payment and the price increases paid into it): all of it
/// (task `cancelled`, every payment `refunded`) or part of it (task
/// `completed`; the refund taken from the task's payment first, then from the
/// increases in the order they were paid; what is left of each paid out less
/// the fee on it). Ledger rows and the provider calls owed are written with
/// it. The task's payment, or `None` when the dispute is no longer open.
#[instrument(skip_all)]
pub async fn refund(
    db: &Db,
    dispute: &DisputeRow,
    decision: &Decision<'_>,
    refund_cents: i64,
    notifications: &[NotificationRow],
    now: Timestamp,
) -> sqlx::Result<Option<PaymentRow>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            // Completed, unless the refund turns out to be the whole escrow (cancelled, below).
            let moved = sqlx::query(
                "update tasks set status = 'completed', completed_at = $2, open_dispute_id = null, updated_at = $2
                 where id = $1 and open_dispute_id = $3 and status in ('assigned', 'completion_requested')",
            )
            .bind(dispute.task_id)
            .bind(now)
            .bind(dispute.id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 0 {
                return Ok(None);
            }
            // The escrow: the task's payment first, then its increases as they were paid.
            let held = sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(format!(
                "select {PAYMENT_COLUMNS} from payments
                 where task_id = $1 and status = 'held' and (id = $2 or parent_payment_id = $2)
                 order by case when id = $2 then 0 else 1 end, id"
            )))
            .bind(dispute.task_id)
            .bind(dispute.payment_id)
            .fetch_all(&mut *tx)
            .await?;
            if held.first().map(|payment| payment.id) != Some(dispute.payment_id) {
                return Err(sqlx::Error::Protocol(format!("disputed task {} has no held payment", dispute.task_id)));
            }
            let total: i64 = held.iter().map(|payment| payment.amount_cents).sum();
            let full = refund_cents >= total;
            if full {
                sqlx::query(
                    "update tasks set status = 'cancelled', cancelled_at = $2, completed_at = null,
                                      cancellation_reason = 'dispute', cancellation_attributed_to = $3
                     where id = $1",
                )
                .bind(dispute.task_id)
                .bind(now)
                .bind(model::marketplace::cancellations::dispute_attribution(dispute.reason).as_str())
                .execute(&mut *tx)
                .await?;
            }
            let outcome = if full { DisputeOutcome::Refund } else { DisputeOutcome::PartialRefund };
            if resolve_open_dispute(tx.conn(), dispute.task_id, outcome, Some(refund_cents), Some(decision), now)
                .await?
                == 0
            {
                return Ok(None);
            }
            close_open_increases(tx.conn(), dispute.task_id, now).await?;
            close_pending_reschedules!(tx, dispute.task_id, now)?;
            let mut left = refund_cents.min(total);
            let mut task_payment = None;
            for payment in held {
                let share = left.min(payment.amount_cents);
                left -= share;
                let refunded_whole = share == payment.amount_cents;
                let rest = payment.amount_cents - share;
                let row = sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(format!(
                    "update payments set status = case when $3 then 'refunded' else 'released' end,
                                         refund_reason = case when $4 > 0 then 'dispute' else refund_reason end,
                                         refunded_cents = $4,
                                         fee_cents = case when $3 then fee_cents else $5 end,
                                         refunded_at = case when $4 > 0 then $2 else refunded_at end,
                                         released_at = case when $3 then released_at else $2 end,
                                         updated_at = $2
                     where id = $1 and status = 'held'
                     returning {PAYMENT_COLUMNS}"
                )))
                .bind(payment.id)
                .bind(now)
                .bind(refunded_whole)
                .bind(share)
                .bind(fee_cents(rest))
                .fetch_one(&mut *tx)
                .await?;
                let (task_id, currency) = (row.task_id, row.currency.as_str());
                if share > 0 {
                    let entry = LedgerEntry::new(
                        row.id,
                        task_id,
                        LedgerKind::Refund,
                        share,
                        currency,
                        Some(row.poster_id),
                        now,
                    );
                    insert_ledger_entry(tx.conn(), &entry).await?;
                    insert_provider_call(
                        tx.conn(),
                        &NewProviderCall::new(row.id, ProviderCallKind::Refund, &row.provider, share, now),
                    )
                    .await?;
                }
                if !refunded_whole {
                    let payout = payout_cents(rest);
                    let entry = LedgerEntry::new(
                        row.id,
                        task_id,
                        LedgerKind::Payout,
                        payout,
                        currency,
                        Some(row.tasker_id),
                        now,
                    );
                    insert_ledger_entry(tx.conn(), &entry).await?;
                    insert_ledger_entry(
                        tx.conn(),
                        &LedgerEntry::new(row.id, task_id, LedgerKind::Fee, fee_cents(rest), currency, None, now),
                    )
                    .await?;
                    if payout > 0 {
                        insert_provider_call(
                            tx.conn(),
                            &NewProviderCall::new(row.id, ProviderCallKind::Transfer, &row.provider, payout, now),
                        )
                        .await?;
                    }
                }
                if row.id == dispute.payment_id {
                    task_payment = Some(row);
                }
            }
            for notification in notifications {
                insert_notification!(tx, notification)?;
            }
            tx.commit().await?;
            Ok(task_payment)
        }
        .await
    })
}
