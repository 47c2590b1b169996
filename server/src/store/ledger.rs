//! The ledger: one row per money movement, written in the transaction of the
//! transition that moves the money, never updated. `escrow_delta_cents` is the
//! movement's effect on what the platform holds for posters and taskers.

use serde::Serialize;
use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp, new_id},
    on_pool,
};

pub mod kind {
    /// The poster's card is charged into escrow (+amount).
    pub const CHARGE: &str = "charge";
    /// The tasker is paid out of escrow (−(amount − fee)).
    pub const PAYOUT: &str = "payout";
    /// The platform keeps its fee (−fee).
    pub const FEE: &str = "fee";
    /// The poster gets the charge back (−amount).
    pub const REFUND: &str = "refund";
}

#[derive(Clone, Debug, FromRow, Serialize)]
pub struct LedgerEntry {
    pub id: Uuid,
    pub payment_id: Uuid,
    pub task_id: Uuid,
    pub kind: String,
    pub amount_cents: i64,
    pub escrow_delta_cents: i64,
    pub currency: String,
    pub user_id: Option<Uuid>,
    pub provider_ref: Option<String>,
    pub created_at: Timestamp,
}

impl LedgerEntry {
    /// `amount_cents` is the size of the movement; its sign on escrow follows from `kind`.
    pub fn new(
        payment_id: Uuid,
        task_id: Uuid,
        kind: &'static str,
        amount_cents: i64,
        currency: &str,
        user_id: Option<Uuid>,
        now: Timestamp,
    ) -> Self {
        let escrow_delta_cents = if kind == self::kind::CHARGE { amount_cents } else { -amount_cents };
        Self {
            id: new_id(),
            payment_id,
            task_id,
            kind: kind.to_owned(),
            amount_cents,
            escrow_delta_cents,
            currency: currency.to_owned(),
            user_id,
            provider_ref: None,
            created_at: now,
        }
    }

    pub fn with_provider_ref(mut self, provider_ref: Option<String>) -> Self {
        self.provider_ref = provider_ref;
        self
    }
}

/// Inserts a [`LedgerEntry`] inside the caller's transaction. The unique
/// (payment_id, kind) key makes a repeated movement fail instead of counting twice.
#[macro_export]
macro_rules! insert_ledger_entry {
    ($tx:expr, $entry:expr) => {{
        let entry: &$crate::store::ledger::LedgerEntry = $entry;
        sqlx::query(
            "insert into ledger_entries (id, payment_id, task_id, kind, amount_cents, escrow_delta_cents, currency,
                                         user_id, provider_ref, created_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(entry.id)
        .bind(entry.payment_id)
        .bind(entry.task_id)
        .bind(&entry.kind)
        .bind(entry.amount_cents)
        .bind(entry.escrow_delta_cents)
        .bind(&entry.currency)
        .bind(entry.user_id)
        .bind(&entry.provider_ref)
        .bind(entry.created_at)
        .execute(&mut *$tx)
        .await
        .map(|done| done.rows_affected())
    }};
}

#[instrument(skip_all)]
pub async fn entries_for_task(db: &Db, task_id: Uuid) -> sqlx::Result<Vec<LedgerEntry>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, LedgerEntry>(
            "select id, payment_id, task_id, kind, amount_cents, escrow_delta_cents, currency, user_id, provider_ref,
                    created_at
             from ledger_entries where task_id = $1 order by id",
        )
        .bind(task_id)
        .fetch_all(pool)
        .await
    })
}

/// The two sides of the escrow check: what the ledger says the platform holds,
/// and the sum of payments that are held. They are equal after every transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct EscrowCheck {
    pub ledger_balance_cents: i64,
    pub held_payments_cents: i64,
}

impl EscrowCheck {
    pub fn balances(&self) -> bool {
        self.ledger_balance_cents == self.held_payments_cents
    }
}

#[instrument(skip_all)]
pub async fn escrow_check(db: &Db) -> sqlx::Result<EscrowCheck> {
    let (ledger_balance_cents, held_payments_cents) = on_pool!(db, |pool| {
        sqlx::query_as::<_, (i64, i64)>(
            // Postgres sums bigints as numeric: cast back (a no-op in SQLite).
            "select cast((select coalesce(sum(escrow_delta_cents), 0) from ledger_entries) as bigint),
                    cast((select coalesce(sum(amount_cents), 0) from payments where status = 'held') as bigint)",
        )
        .fetch_one(pool)
        .await
    })?;
    Ok(EscrowCheck { ledger_balance_cents, held_payments_cents })
}

/// One payment whose ledger rows do not match its status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LedgerMismatch {
    pub payment_id: Uuid,
    pub status: String,
    /// (kind, amount) the status calls for, and what the ledger holds, sorted by kind.
    pub expected: Vec<(String, i64)>,
    pub found: Vec<(String, i64)>,
}

/// The rows a payment in `status` must have: nothing before money moved; the
/// charge once held; the refund of what went back to the poster, and the
/// payout and fee of the rest, once released or refunded. Sorted by kind.
pub fn expected_rows(status: &str, amount: i64, refunded: i64, fee: i64) -> Vec<(String, i64)> {
    let mut rows: Vec<(&str, i64)> = match status {
        "held" => vec![(kind::CHARGE, amount)],
        "refunded" => vec![(kind::CHARGE, amount), (kind::REFUND, amount)],
        "released" => {
            let mut rows = vec![(kind::CHARGE, amount), (kind::PAYOUT, amount - refunded - fee), (kind::FEE, fee)];
            if refunded > 0 {
                rows.push((kind::REFUND, refunded));
            }
            rows
        }
        _ => vec![],
    };
    rows.sort();
    rows.into_iter().map(|(kind, cents)| (kind.to_owned(), cents)).collect()
}

/// Checks every payment's ledger rows, one by one, against its status (a
/// charge and its refund cancelling out in a total would hide a missing pair).
/// Reads everything: for tests, audits and the soak, not for request paths.
#[instrument(skip_all)]
pub async fn audit(db: &Db) -> sqlx::Result<Vec<LedgerMismatch>> {
    let (payments, rows) = on_pool!(db, |pool| {
        async {
            let payments = sqlx::query_as::<_, (Uuid, String, i64, i64, i64)>(
                "select id, status, amount_cents, refunded_cents, fee_cents from payments order by id",
            )
            .fetch_all(pool)
            .await?;
            let rows = sqlx::query_as::<_, (Uuid, String, i64)>(
                "select payment_id, kind, amount_cents from ledger_entries order by payment_id, kind",
            )
            .fetch_all(pool)
            .await?;
            Ok::<_, sqlx::Error>((payments, rows))
        }
        .await
    })?;
    let mut found: std::collections::HashMap<Uuid, Vec<(String, i64)>> = std::collections::HashMap::new();
    for (payment_id, kind, cents) in rows {
        found.entry(payment_id).or_default().push((kind, cents));
    }
    let mut mismatches = Vec::new();
    for (payment_id, status, amount, refunded, fee) in payments {
        let expected = expected_rows(&status, amount, refunded, fee);
        let found = found.remove(&payment_id).unwrap_or_default();
        if expected != found {
            mismatches.push(LedgerMismatch { payment_id, status, expected, found });
        }
    }
    Ok(mismatches)
}
