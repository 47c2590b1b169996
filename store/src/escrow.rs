//! The money transitions of a task, each one transaction of conditional
//! updates with its ledger rows and notifications: start a checkout, confirm
//! a paid one (or refund it when the task went to someone else meanwhile),
//! expire an abandoned one. The task row is always updated first, so
//! concurrent transitions of one task queue on it and cannot deadlock.

use tracing::instrument;
use uuid::Uuid;

use model::states::PaymentPurpose;

use crate::{
    db::{BeginWrite, Conn, Db, InTransaction, Timestamp},
    insert_notification,
    ledger::LedgerEntry,
    notifications::{Notice, NotificationRow},
    on_conn, on_pool,
    payments::PaymentRow,
    provider_calls::NewProviderCall,
};
use crate::{ledger::insert_ledger_entry, provider_calls::insert_provider_call};

/// Locks the task's row first, like every transition of the task, so
/// concurrent transitions of one task queue on it and cannot deadlock.
/// Rows affected (0 when the task is gone).
pub(crate) async fn lock_task(conn: Conn<'_>, task_id: Uuid) -> sqlx::Result<u64> {
    on_conn!(conn, |connection| {
        sqlx::query("update tasks set updated_at = updated_at where id = $1")
            .bind(task_id)
            .execute(connection)
            .await
            .map(|done| done.rows_affected())
    })
}

/// Lets the tasker change or withdraw an offer again once no checkout of it is open.
async fn unfreeze_offer(conn: Conn<'_>, offer_id: Uuid) -> sqlx::Result<()> {
    on_conn!(conn, |connection| {
        sqlx::query(
            "update offers set frozen_at = null
             where id = $1 and not exists (select 1 from payments where offer_id = $1 and status in ('pending', 'processing'))",
        )
        .bind(offer_id)
        .execute(connection)
        .await
        .map(|_| ())
    })
}

/// Puts a `pending_payment` task back to `open` when no checkout of it is still pending or
/// processing. Rows affected.
async fn reopen_task_if_unpaid(conn: Conn<'_>, task_id: Uuid, now: Timestamp) -> sqlx::Result<u64> {
    on_conn!(conn, |connection| {
        sqlx::query(
            "update tasks set status = 'open', updated_at = $2
             where id = $1 and status = 'pending_payment'
               and not exists (select 1 from payments where task_id = $1 and status in ('pending', 'processing'))",
        )
        .bind(task_id)
        .bind(now)
        .execute(connection)
        .await
        .map(|done| done.rows_affected())
    })
}

/// Inserts the `pending` payment row of a checkout inside the caller's transaction, of the kind
/// `purpose`: the task's own (no parent) or a price increase's (whose parent is the task's
/// payment). Rows affected.
pub(crate) async fn insert_pending_payment(
    conn: Conn<'_>,
    payment: &NewPayment<'_>,
    purpose: PaymentPurpose,
    parent_payment_id: Option<Uuid>,
    now: Timestamp,
) -> sqlx::Result<u64> {
    on_conn!(conn, |connection| {
        sqlx::query(
            "insert into payments (id, task_id, offer_id, poster_id, tasker_id, provider, session_id, checkout_url,
                                   amount_cents, fee_cents, currency, status, expires_at, next_check_at,
                                   created_at, updated_at, purpose, parent_payment_id)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending', $12, $12, $13, $13, $14, $15)",
        )
        .bind(payment.id)
        .bind(payment.task_id)
        .bind(payment.offer_id)
        .bind(payment.poster_id)
        .bind(payment.tasker_id)
        .bind(payment.provider)
        .bind(payment.session_id)
        .bind(payment.checkout_url)
        .bind(payment.amount_cents)
        .bind(payment.fee_cents)
        .bind(payment.currency)
        .bind(payment.expires_at)
        .bind(now)
        .bind(purpose.as_str())
        .bind(parent_payment_id)
        .execute(connection)
        .await
        .map(|done| done.rows_affected())
    })
}

/// A checkout about to be opened.
pub struct NewPayment<'a> {
    pub id: Uuid,
    pub task_id: Uuid,
    pub offer_id: Uuid,
    pub poster_id: Uuid,
    pub tasker_id: Uuid,
    pub provider: &'a str,
    pub session_id: &'a str,
    pub checkout_url: &'a str,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub currency: &'a str,
    pub expires_at: Timestamp,
}

/// Marks the task `pending_payment`, freezes the offer at the amount being
/// charged, and records the checkout — if the task is still the poster's and
/// open (or pending another checkout, none of them processing) and the offer
/// still pending at that amount. False otherwise (the caller expires the
/// provider's session).
///
/// The offer is frozen by an update of its own row, so a concurrent
/// withdrawal or edit of it (which requires it unfrozen) either commits first
/// and makes this fail, or waits and then fails itself — also on Postgres
/// under read committed, where a check inside a subquery would not see it.
#[instrument(skip_all)]
pub async fn start_checkout(db: &Db, payment: &NewPayment<'_>, now: Timestamp) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let moved = sqlx::query(
                "update tasks set status = 'pending_payment', updated_at = $3
                 where id = $1 and poster_id = $2 and status in ('open', 'pending_payment')
                   and not exists (select 1 from payments where task_id = $1 and status = 'processing')",
            )
            .bind(payment.task_id)
            .bind(payment.poster_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 0 {
                return Ok(false);
            }
            let frozen = sqlx::query(
                "update offers set frozen_at = $3
                 where id = $1 and task_id = $2 and status = 'pending' and amount_cents = $4",
            )
            .bind(payment.offer_id)
            .bind(payment.task_id)
            .bind(now)
            .bind(payment.amount_cents)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if frozen == 0 {
                return Ok(false);
            }
            insert_pending_payment(tx.conn(), payment, PaymentPurpose::Task, None, now).await?;
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}

/// What confirming a paid checkout did.
#[derive(Debug)]
pub enum Confirmation {
    /// This payment won: held in escrow, task assigned, offer accepted, the others not selected.
    Assigned { notifications: Vec<NotificationRow> },
    /// The task went to another payment (or the offer was withdrawn): this charge is refunded.
    Refunded { notifications: Vec<NotificationRow> },
    /// Someone confirmed (or expired) this payment already; nothing changed.
    Unchanged,
}

/// What a confirmation tells whom, composed by the caller (`notices`): the
/// parties when this payment wins, each tasker whose pending offer it closes,
/// or the poster when it lost and is refunded.
pub struct ConfirmationNotices {
    pub assigned: Vec<NotificationRow>,
    pub not_selected: Notice,
    pub refunded: NotificationRow,
}

/// Confirms a checkout the provider reports paid. Idempotent: a second call
/// (verify twice, a replayed webhook) changes nothing.
#[instrument(skip_all)]
pub async fn confirm_paid(
    db: &Db,
    payment: &PaymentRow,
    notices: &ConfirmationNotices,
    charge_ref: Option<&str>,
    payment_intent: Option<&str>,
    now: Timestamp,
) -> sqlx::Result<Confirmation> {
    let assigned: Option<Vec<NotificationRow>> = on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let task_moved = sqlx::query(
                "update tasks set status = 'assigned', assigned_tasker_id = $2, accepted_offer_id = $3, updated_at = $4
                 where id = $1 and status in ('open', 'pending_payment')
                   and exists (select 1 from offers where id = $3 and task_id = $1 and status = 'pending')
                   and exists (select 1 from payments where id = $5 and status in ('pending', 'processing'))",
            )
            .bind(payment.task_id)
            .bind(payment.tasker_id)
            .bind(payment.offer_id)
            .bind(now)
            .bind(payment.id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if task_moved == 0 {
                return Ok(None);
            }
            sqlx::query("update offers set status = 'accepted', frozen_at = null, updated_at = $2 where id = $1")
                .bind(payment.offer_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            let not_selected: Vec<Uuid> = sqlx::query_scalar(
                "update offers set status = 'not_selected', updated_at = $2
                 where task_id = $1 and status = 'pending'
                 returning tasker_id",
            )
            .bind(payment.task_id)
            .bind(now)
            .fetch_all(&mut *tx)
            .await?;
            sqlx::query(
                "update payments set status = 'held', charge_ref = $2, payment_intent = coalesce($3, payment_intent),
                                     held_at = $4, updated_at = $4, next_check_at = null
                 where id = $1 and status in ('pending', 'processing')",
            )
            .bind(payment.id)
            .bind(charge_ref)
            .bind(payment_intent)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            insert_ledger_entry(tx.conn(), &LedgerEntry::charge_of(payment, charge_ref, now)).await?;

            let mut notifications = notices.assigned.clone();
            notifications.extend(not_selected.into_iter().map(|tasker_id| notices.not_selected.to(tasker_id, now)));
            for row in &notifications {
                insert_notification!(tx, row)?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(Some(notifications))
        }
        .await
    })?;
    if let Some(notifications) = assigned {
        return Ok(Confirmation::Assigned { notifications });
    }
    refund_losing_charge(db, payment, &notices.refunded, charge_ref, payment_intent, now).await
}

/// A charge that can no longer buy the task: recorded as charged and refunded
/// at once (the refund is owed to the provider through the outbox), its offer
/// unfrozen, and the task back to `open` when nothing else is paying for it.
async fn refund_losing_charge(
    db: &Db,
    payment: &PaymentRow,
    notification: &NotificationRow,
    charge_ref: Option<&str>,
    payment_intent: Option<&str>,
    now: Timestamp,
) -> sqlx::Result<Confirmation> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            lock_task(tx.conn(), payment.task_id).await?;
            let refunded = sqlx::query(
                "update payments set status = 'refunded', charge_ref = $2, payment_intent = coalesce($3, payment_intent),
                                     refund_reason = 'task no longer available', refunded_at = $4, updated_at = $4,
                                     refunded_cents = amount_cents, next_check_at = null
                 where id = $1 and status in ('pending', 'processing')",
            )
            .bind(payment.id)
            .bind(charge_ref)
            .bind(payment_intent)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if refunded == 0 {
                return Ok(Confirmation::Unchanged);
            }
            insert_ledger_entry(tx.conn(), &LedgerEntry::charge_of(payment, charge_ref, now)).await?;
            insert_ledger_entry(tx.conn(), &LedgerEntry::refund_of(payment, now)).await?;
            insert_provider_call(tx.conn(), &NewProviderCall::refund_of(payment, now)).await?;
            unfreeze_offer(tx.conn(), payment.offer_id).await?;
            reopen_task_if_unpaid(tx.conn(), payment.task_id, now).await?;
            insert_notification!(tx, notification)?;
            tx.commit().await?;
            Ok(Confirmation::Refunded { notifications: vec![notification.clone()] })
        }
        .await
    })
}

/// Ends a checkout that was never paid; the task goes back to `open` when no
/// other checkout of it is still pending. `Some(reopened)` when this call expired it.
#[instrument(skip_all)]
pub async fn expire_unpaid(db: &Db, payment: &PaymentRow, now: Timestamp) -> sqlx::Result<Option<bool>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let touched = lock_task(tx.conn(), payment.task_id).await?;
            let expired = sqlx::query(
                "update payments set status = 'expired', updated_at = $2, next_check_at = null
                 where id = $1 and status = 'pending'",
            )
            .bind(payment.id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if expired == 0 || touched == 0 {
                tx.commit().await?;
                return Ok(if expired == 0 { None } else { Some(false) });
            }
            unfreeze_offer(tx.conn(), payment.offer_id).await?;
            let reopened = reopen_task_if_unpaid(tx.conn(), payment.task_id, now).await?;
            tx.commit().await?;
            Ok(Some(reopened == 1))
        }
        .await
    })
}

/// A checkout paid by a method that settles later: `processing`, never
/// expired, re-checked at `next_check_at` in case its webhook is lost. True
/// when this call moved it.
#[instrument(skip_all)]
pub async fn mark_processing(
    db: &Db,
    payment: &PaymentRow,
    payment_intent: Option<&str>,
    next_check_at: Timestamp,
    notification: &NotificationRow,
    now: Timestamp,
) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            lock_task(tx.conn(), payment.task_id).await?;
            let moved = sqlx::query(
                "update payments set status = 'processing', payment_intent = coalesce($2, payment_intent),
                                     next_check_at = $3, check_attempts = 0, updated_at = $4
                 where id = $1 and status = 'pending'",
            )
            .bind(payment.id)
            .bind(payment_intent)
            .bind(next_check_at)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 0 {
                return Ok(false);
            }
            insert_notification!(tx, notification)?;
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}

/// A processing payment that did not settle: `failed`, its offer unfrozen,
/// and the task back to `open` unless another checkout is paying for it.
/// `Some(reopened)` when this call failed it.
#[instrument(skip_all)]
pub async fn fail_processing(
    db: &Db,
    payment: &PaymentRow,
    notification: &NotificationRow,
    now: Timestamp,
) -> sqlx::Result<Option<bool>> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            lock_task(tx.conn(), payment.task_id).await?;
            let failed = sqlx::query(
                "update payments set status = 'failed', next_check_at = null, updated_at = $2
                 where id = $1 and status in ('pending', 'processing')",
            )
            .bind(payment.id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if failed == 0 {
                return Ok(None);
            }
            unfreeze_offer(tx.conn(), payment.offer_id).await?;
            let reopened = reopen_task_if_unpaid(tx.conn(), payment.task_id, now).await?;
            insert_notification!(tx, notification)?;
            tx.commit().await?;
            Ok(Some(reopened == 1))
        }
        .await
    })
}
