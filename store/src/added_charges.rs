//! Charges added to a task's escrow after assignment (price increases; each is
//! a payment row of its own whose parent is the task's payment). Whatever ends
//! the escrow — release, cancellation, a dispute's decision — ends them with
//! it, inside its own transaction: these macros take the caller's transaction
//! (its type differs per backend) and write the rows, ledger entries and owed
//! provider calls of every added charge still held.

/// Closes the task's price increase still waiting for an answer or a payment:
/// the escrow it would join is ending. A checkout of it paid later is refunded
/// (`store::price_increases::confirm_paid`). Rows affected.
#[macro_export]
macro_rules! close_open_increases {
    ($tx:expr, $task_id:expr, $now:expr) => {
        sqlx::query(
            "update price_increases set status = 'closed', answered_at = $2
             where task_id = $1 and status in ('pending', 'approved')",
        )
        .bind($task_id)
        .bind($now)
        .execute(&mut *$tx)
        .await
        .map(|done| done.rows_affected())
    };
}

/// Releases every added charge of the task still held: payout and fee ledger
/// rows and the transfer owed, as for the task's own payment. The released
/// rows, in the order they were paid (a macro for the caller's
/// async block: errors return through `?`).
#[macro_export]
macro_rules! release_added_charges {
    ($tx:expr, $task_id:expr, $now:expr) => {{
        let now: $crate::db::Timestamp = $now;
        let released = sqlx::query_as::<_, $crate::payments::PaymentRow>(sqlx::AssertSqlSafe(format!(
            "update payments set status = 'released', released_at = $2, updated_at = $2
             where task_id = $1 and parent_payment_id is not null and status = 'held'
             returning {}",
            $crate::payments::PAYMENT_COLUMNS
        )))
        .bind($task_id)
        .bind(now)
        .fetch_all(&mut *$tx)
        .await?;
        let mut released = released;
        released.sort_by_key(|payment| payment.id);
        for payment in &released {
            let fee = payment.fee_cents;
            let payout = payment.amount_cents - fee;
            let entries = [
                $crate::ledger::LedgerEntry::new(
                    payment.id,
                    payment.task_id,
                    $crate::ledger::kind::PAYOUT,
                    payout,
                    &payment.currency,
                    Some(payment.tasker_id),
                    now,
                ),
                $crate::ledger::LedgerEntry::new(
                    payment.id,
                    payment.task_id,
                    $crate::ledger::kind::FEE,
                    fee,
                    &payment.currency,
                    None,
                    now,
                ),
            ];
            for entry in &entries {
                $crate::insert_ledger_entry!($tx, entry)?;
            }
            if payout > 0 {
                let call = $crate::provider_calls::NewProviderCall::new(
                    payment.id,
                    ::model::states::ProviderCallKind::Transfer,
                    &payment.provider,
                    payout,
                    now,
                );
                $crate::insert_provider_call!($tx, &call)?;
            }
        }
        released
    }};
}

/// Refunds every added charge of the task still held, in full: refund ledger
/// rows and the refunds owed. The refunded rows.
#[macro_export]
macro_rules! refund_added_charges {
    ($tx:expr, $task_id:expr, $reason:expr, $now:expr) => {{
        let now: $crate::db::Timestamp = $now;
        let refunded = sqlx::query_as::<_, $crate::payments::PaymentRow>(sqlx::AssertSqlSafe(format!(
            "update payments set status = 'refunded', refund_reason = $3, refunded_at = $2, updated_at = $2,
                                 refunded_cents = amount_cents
             where task_id = $1 and parent_payment_id is not null and status = 'held'
             returning {}",
            $crate::payments::PAYMENT_COLUMNS
        )))
        .bind($task_id)
        .bind(now)
        .bind($reason)
        .fetch_all(&mut *$tx)
        .await?;
        let mut refunded = refunded;
        refunded.sort_by_key(|payment| payment.id);
        for payment in &refunded {
            let entry = $crate::ledger::LedgerEntry::new(
                payment.id,
                payment.task_id,
                $crate::ledger::kind::REFUND,
                payment.amount_cents,
                &payment.currency,
                Some(payment.poster_id),
                now,
            );
            $crate::insert_ledger_entry!($tx, &entry)?;
            let call = $crate::provider_calls::NewProviderCall::new(
                payment.id,
                ::model::states::ProviderCallKind::Refund,
                &payment.provider,
                payment.amount_cents,
                now,
            );
            $crate::insert_provider_call!($tx, &call)?;
        }
        refunded
    }};
}
