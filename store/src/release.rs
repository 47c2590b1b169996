//! The way to completion after assignment: the tasker asks to be paid, the
//! poster (or the auto-release sweep, or an operator deciding a dispute)
//! releases the escrow. Cancellation requests are `store::cancellations`.

use tracing::instrument;
use uuid::Uuid;

use model::{
    payments::fees::payout_cents,
    states::{DisputeOutcome, LedgerKind, ProviderCallKind},
};

use crate::{
    added_charges::{close_open_increases, release_added_charges},
    db::InTransaction,
    ledger::insert_ledger_entry,
    provider_calls::insert_provider_call,
};
use crate::{
    cancellations::close_pending_cancellation,
    close_pending_reschedules,
    db::{BeginWrite, Conn, Db, Timestamp},
    insert_notification,
    ledger::LedgerEntry,
    notifications::NotificationRow,
    on_conn, on_pool,
    payments::{PAYMENT_COLUMNS, PaymentRow},
    provider_calls::NewProviderCall,
};

/// An operator's decision of a dispute, carried by the transition it decides.
pub struct Decision<'a> {
    pub dispute_id: Uuid,
    pub operator_id: Uuid,
    pub note: &'a str,
}

/// Closes the task's open dispute inside the caller's transaction: decided by
/// an operator (whose decision goes into the audit log), or by the poster
/// releasing (`decision` none). Rows affected.
pub(crate) async fn resolve_open_dispute(
    conn: Conn<'_>,
    task_id: Uuid,
    outcome: DisputeOutcome,
    refund_cents: Option<i64>,
    decision: Option<&Decision<'_>>,
    now: Timestamp,
) -> sqlx::Result<u64> {
    on_conn!(conn, |connection| {
        let resolved = sqlx::query(
            "update disputes set status = 'resolved', outcome = $2, refund_cents = $3, resolved_by = $4,
                                 resolution_note = $5, resolved_at = $6
             where task_id = $1 and status = 'open' and ($7 = false or id = $8)",
        )
        .bind(task_id)
        .bind(outcome.as_str())
        .bind(refund_cents)
        .bind(decision.map(|d| d.operator_id))
        .bind(decision.map(|d| d.note).unwrap_or("Released by the poster"))
        .bind(now)
        .bind(decision.is_some())
        .bind(decision.map(|d| d.dispute_id).unwrap_or_default())
        .execute(&mut *connection)
        .await
        .map(|done| done.rows_affected());
        match (resolved, decision) {
            (Ok(1), Some(decision)) => {
                let entry = crate::audit_log::AuditEntry::new(
                    decision.operator_id,
                    model::moderation::AuditAction::DisputeDecision,
                    (model::moderation::AuditTarget::Dispute, decision.dispute_id),
                    decision.note,
                );
                crate::insert_audit_entry!(connection, &entry).map(|_| 1)
            }
            (other, _) => other,
        }
    })
}

/// `assigned` → `completion_requested` by the assigned tasker, with the
/// poster's `notification`; auto-release counts from now. False when the task
/// was not the tasker's to move.
#[instrument(skip_all)]
pub async fn request_payment(
    db: &Db,
    task_id: Uuid,
    tasker_id: Uuid,
    notification: &NotificationRow,
    now: Timestamp,
) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let moved = sqlx::query(
                "update tasks set status = 'completion_requested', updated_at = $3
                 where id = $1 and assigned_tasker_id = $2 and status = 'assigned' and open_dispute_id is null",
            )
            .bind(task_id)
            .bind(tasker_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 0 {
                return Ok(false);
            }
            sqlx::query("update payments set completion_requested_at = $2, updated_at = $2 where task_id = $1 and status = 'held'")
                .bind(task_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            insert_notification!(tx, notification)?;
            tx.commit().await?;
            Ok(true)
        }
        .await
    })
}

/// `assigned`/`completion_requested` → `completed`, payment `released`, with
/// the payout and fee ledger rows and the transfer owed to the tasker. By the
/// poster (`poster_id`; this also ends an open dispute in the tasker's
/// favour), an operator's `decision` of the open dispute, or auto-release
/// (neither; never while a dispute or a cancellation request is open, which
/// the lapse decides first). A cancellation request nobody answered is closed.
/// `notices` composes what the parties are told from the released payment and
/// what reaches the tasker (the payout and the increases' payouts), in cents.
#[instrument(skip_all)]
pub async fn release<F>(
    db: &Db,
    task_id: Uuid,
    poster_id: Option<Uuid>,
    decision: Option<&Decision<'_>>,
    notices: &F,
    now: Timestamp,
) -> sqlx::Result<Option<(PaymentRow, Vec<NotificationRow>)>>
where
    F: Fn(&PaymentRow, i64) -> Vec<NotificationRow> + Sync,
{
    let auto_release = poster_id.is_none() && decision.is_none();
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let moved = sqlx::query(
                "update tasks set status = 'completed', completed_at = $2, updated_at = $2, open_dispute_id = null
                 where id = $1 and status in ('assigned', 'completion_requested') and ($3 = false or poster_id = $4)
                   and ($5 = false or (open_dispute_id is null
                                       and not exists (select 1 from cancellation_requests c
                                                       where c.task_id = tasks.id and c.status = 'pending')))
                   and ($6 = false or open_dispute_id is not null)",
            )
            .bind(task_id)
            .bind(now)
            .bind(poster_id.is_some())
            .bind(poster_id.unwrap_or_default())
            .bind(auto_release)
            .bind(decision.is_some())
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 0 {
                return Ok(None);
            }
            let resolved =
                resolve_open_dispute(tx.conn(), task_id, DisputeOutcome::Release, None::<i64>, decision, now).await?;
            if decision.is_some() && resolved == 0 {
                return Ok(None);
            }
            close_pending_cancellation!(tx, task_id, now)?;
            close_open_increases(tx.conn(), task_id, now).await?;
            close_pending_reschedules!(tx, task_id, now)?;
            let payment = sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(format!(
                "update payments set status = 'released', released_at = $2, updated_at = $2
                 where task_id = $1 and status = 'held' and parent_payment_id is null
                 returning {PAYMENT_COLUMNS}"
            )))
            .bind(task_id)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(payment) = payment else {
                // An assigned task always has its payment held; refuse rather than complete unpaid.
                return Err(sqlx::Error::Protocol(format!("task {task_id} is assigned without a held payment")));
            };
            let payout = payout_cents(payment.amount_cents);
            insert_ledger_entry(
                tx.conn(),
                &LedgerEntry::new(
                    payment.id,
                    task_id,
                    LedgerKind::Payout,
                    payout,
                    &payment.currency,
                    Some(payment.tasker_id),
                    now,
                ),
            )
            .await?;
            insert_ledger_entry(
                tx.conn(),
                &LedgerEntry::new(
                    payment.id,
                    task_id,
                    LedgerKind::Fee,
                    payment.fee_cents,
                    &payment.currency,
                    None,
                    now,
                ),
            )
            .await?;
            if payout > 0 {
                insert_provider_call(
                    tx.conn(),
                    &NewProviderCall::new(payment.id, ProviderCallKind::Transfer, &payment.provider, payout, now),
                )
                .await?;
            }
            let added = release_added_charges(tx.conn(), task_id, now).await?;
            let added_payout: i64 = added.iter().map(|charge| charge.amount_cents - charge.fee_cents).sum();
            let notifications = notices(&payment, payout + added_payout);
            for row in &notifications {
                insert_notification!(tx, row)?;
            }
            tx.commit().await?;
            Ok(Some((payment, notifications)))
        }
        .await
    })
}
