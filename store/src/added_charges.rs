//! Charges added to a task's escrow after assignment (price increases; each is
//! a payment row of its own whose parent is the task's payment). Whatever ends
//! the escrow — release, cancellation, a dispute's decision — ends them with
//! it, inside its own transaction: these steps take the caller's transaction
//! and write the rows, ledger entries and owed provider calls of every added
//! charge still held.

use uuid::Uuid;

use model::states::{LedgerKind, ProviderCallKind};

use crate::{
    db::{Conn, Timestamp},
    ledger::{LedgerEntry, insert_ledger_entry},
    on_conn,
    payments::{PAYMENT_COLUMNS, PaymentRow},
    provider_calls::{NewProviderCall, insert_provider_call},
};

/// Closes the task's price increase still waiting for an answer or a payment:
/// the escrow it would join is ending. A checkout of it paid later is refunded
/// (`store::price_increases::confirm_paid`). Rows affected.
pub async fn close_open_increases(conn: Conn<'_>, task_id: Uuid, now: Timestamp) -> sqlx::Result<u64> {
    on_conn!(conn, |connection| {
        sqlx::query(
            "update price_increases set status = 'closed', answered_at = $2
             where task_id = $1 and status in ('pending', 'approved')",
        )
        .bind(task_id)
        .bind(now)
        .execute(connection)
        .await
        .map(|done| done.rows_affected())
    })
}

/// Releases every added charge of the task still held: payout and fee ledger
/// rows and the transfer owed, as for the task's own payment. The released
/// rows, in the order they were paid.
pub async fn release_added_charges(mut conn: Conn<'_>, task_id: Uuid, now: Timestamp) -> sqlx::Result<Vec<PaymentRow>> {
    let sql = format!(
        "update payments set status = 'released', released_at = $2, updated_at = $2
         where task_id = $1 and parent_payment_id is not null and status = 'held'
         returning {PAYMENT_COLUMNS}"
    );
    let mut released = on_conn!(conn.reborrow(), |connection| {
        sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(sql)).bind(task_id).bind(now).fetch_all(connection).await
    })?;
    released.sort_by_key(|payment| payment.id);
    for payment in &released {
        let fee = payment.fee_cents;
        let payout = payment.amount_cents - fee;
        let (id, task_id, currency) = (payment.id, payment.task_id, &payment.currency);
        let payout_entry =
            LedgerEntry::new(id, task_id, LedgerKind::Payout, payout, currency, Some(payment.tasker_id), now);
        insert_ledger_entry(conn.reborrow(), &payout_entry).await?;
        insert_ledger_entry(conn.reborrow(), &LedgerEntry::new(id, task_id, LedgerKind::Fee, fee, currency, None, now))
            .await?;
        if payout > 0 {
            let call = NewProviderCall::new(id, ProviderCallKind::Transfer, &payment.provider, payout, now);
            insert_provider_call(conn.reborrow(), &call).await?;
        }
    }
    Ok(released)
}

/// Refunds every added charge of the task still held, in full: refund ledger
/// rows and the refunds owed. The refunded rows.
pub async fn refund_added_charges(
    mut conn: Conn<'_>,
    task_id: Uuid,
    reason: &str,
    now: Timestamp,
) -> sqlx::Result<Vec<PaymentRow>> {
    let sql = format!(
        "update payments set status = 'refunded', refund_reason = $3, refunded_at = $2, updated_at = $2,
                             refunded_cents = amount_cents
         where task_id = $1 and parent_payment_id is not null and status = 'held'
         returning {PAYMENT_COLUMNS}"
    );
    let mut refunded = on_conn!(conn.reborrow(), |connection| {
        sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(sql))
            .bind(task_id)
            .bind(now)
            .bind(reason)
            .fetch_all(connection)
            .await
    })?;
    refunded.sort_by_key(|payment| payment.id);
    for payment in &refunded {
        let entry = LedgerEntry::refund_of(payment, now);
        insert_ledger_entry(conn.reborrow(), &entry).await?;
        let call =
            NewProviderCall::new(payment.id, ProviderCallKind::Refund, &payment.provider, payment.amount_cents, now);
        insert_provider_call(conn.reborrow(), &call).await?;
    }
    Ok(refunded)
}
