//! Tips: a checkout the poster opens when releasing, a payment of its own
//! (`purpose = 'tip'`, its parent the task's released payment) that goes to
//! the tasker in full: no service fee, which its ledger rows record as a fee
//! of 0. A tip never holds up the release it came with.

use tracing::instrument;
use uuid::Uuid;

use model::states::{LedgerKind, PaymentPurpose, ProviderCallKind};

use crate::{
    db::{BeginWrite, Db, InTransaction, Timestamp},
    escrow::{NewPayment, lock_task},
    insert_notification,
    ledger::LedgerEntry,
    notifications::NotificationRow,
    on_pool,
    payments::PaymentRow,
    provider_calls::NewProviderCall,
};
use crate::{ledger::insert_ledger_entry, provider_calls::insert_provider_call};

/// Records the tip's checkout on the poster's completed task whose payment
/// `parent_payment_id` was released — once per task: a tip open, processing or
/// paid refuses another. False otherwise (the caller expires the session).
#[instrument(skip_all)]
pub async fn open(db: &Db, payment: &NewPayment<'_>, parent_payment_id: Uuid, now: Timestamp) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let completed = sqlx::query(
                "update tasks set updated_at = updated_at where id = $1 and poster_id = $2 and status = 'completed'",
            )
            .bind(payment.task_id)
            .bind(payment.poster_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if completed == 0 {
                return Ok(false);
            }
            let opened = sqlx::query(
                "insert into payments (id, task_id, offer_id, poster_id, tasker_id, provider, session_id, checkout_url,
                                       amount_cents, fee_cents, currency, status, expires_at, next_check_at,
                                       created_at, updated_at, purpose, parent_payment_id)
                 select $1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, 'pending', $11, $11, $12, $12, $13, $14
                 where exists (select 1 from payments where id = $14 and task_id = $2 and status = 'released')
                   and not exists (select 1 from payments where parent_payment_id = $14 and purpose = $13
                                   and status in ('pending', 'processing', 'released'))",
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
            .bind(payment.currency)
            .bind(payment.expires_at)
            .bind(now)
            .bind(PaymentPurpose::Tip.as_str())
            .bind(parent_payment_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if opened == 0 {
                return Ok(false);
            }
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}

/// A paid tip goes straight to the tasker: the payment is `released` with its
/// charge, a payout of all of it and a fee of 0, and the transfer is owed.
/// Idempotent: false when this tip was confirmed (or ended) before.
#[instrument(skip_all)]
pub async fn confirm_paid(
    db: &Db,
    payment: &PaymentRow,
    charge_ref: Option<&str>,
    payment_intent: Option<&str>,
    notifications: &[NotificationRow],
    now: Timestamp,
) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            lock_task(tx.conn(), payment.task_id).await?;
            let moved = sqlx::query(
                "update payments set status = 'released', charge_ref = $2, payment_intent = coalesce($3, payment_intent),
                                     held_at = $4, released_at = $4, updated_at = $4, next_check_at = null
                 where id = $1 and purpose = 'tip' and status in ('pending', 'processing')",
            )
            .bind(payment.id)
            .bind(charge_ref)
            .bind(payment_intent)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 0 {
                return Ok(false);
            }
            let (id, task_id, amount, currency) =
                (payment.id, payment.task_id, payment.amount_cents, payment.currency.as_str());
            let entries = [
                LedgerEntry::charge_of(payment, charge_ref, now),
                LedgerEntry::new(id, task_id, LedgerKind::Payout, amount, currency, Some(payment.tasker_id), now),
                // No service fee on a tip: the row says so.
                LedgerEntry::new(id, task_id, LedgerKind::Fee, 0, currency, None, now),
            ];
            for entry in &entries {
                insert_ledger_entry(tx.conn(), entry).await?;
            }
            insert_provider_call(tx.conn(), &NewProviderCall::new(id, ProviderCallKind::Transfer, &payment.provider, amount, now)).await?;
            for notification in notifications {
                insert_notification!(tx, notification)?;
            }
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}
