//! The ledger: one row per money movement, written in the transaction of the
//! transition that moves the money, never updated. `escrow_delta_cents` is the
//! movement's effect on what the platform holds for posters and taskers.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::LedgerKind;

pub use crate::ledger_audit::{LedgerMismatch, audit};
use crate::{
    db::{Conn, Db, Timestamp, new_id},
    on_conn, on_pool,
    payments::PaymentRow,
};

#[derive(Clone, Debug, FromRow)]
pub struct LedgerEntry {
    pub id: Uuid,
    pub payment_id: Uuid,
    pub task_id: Uuid,
    #[sqlx(try_from = "String")]
    pub kind: LedgerKind,
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
        kind: LedgerKind,
        amount_cents: i64,
        currency: &str,
        user_id: Option<Uuid>,
        now: Timestamp,
    ) -> Self {
        let escrow_delta_cents = if kind == LedgerKind::Charge { amount_cents } else { -amount_cents };
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

    /// The poster's charge of all of `payment`, with the provider's reference.
    pub fn charge_of(payment: &PaymentRow, charge_ref: Option<&str>, now: Timestamp) -> Self {
        let (id, task_id, amount, currency) = (payment.id, payment.task_id, payment.amount_cents, &payment.currency);
        Self::new(id, task_id, LedgerKind::Charge, amount, currency, Some(payment.poster_id), now)
            .with_provider_ref(charge_ref.map(str::to_owned))
    }

    /// All of `payment` back to its poster.
    pub fn refund_of(payment: &PaymentRow, now: Timestamp) -> Self {
        let (id, task_id, amount, currency) = (payment.id, payment.task_id, payment.amount_cents, &payment.currency);
        Self::new(id, task_id, LedgerKind::Refund, amount, currency, Some(payment.poster_id), now)
    }
}

/// Inserts a [`LedgerEntry`] inside the caller's transaction. The unique
/// (payment_id, kind) key makes a repeated movement fail instead of counting twice.
pub async fn insert_ledger_entry(conn: Conn<'_>, entry: &LedgerEntry) -> sqlx::Result<u64> {
    on_conn!(conn, |connection| {
        sqlx::query(
            "insert into ledger_entries (id, payment_id, task_id, kind, amount_cents, escrow_delta_cents, currency,
                                         user_id, provider_ref, created_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(entry.id)
        .bind(entry.payment_id)
        .bind(entry.task_id)
        .bind(entry.kind.as_str())
        .bind(entry.amount_cents)
        .bind(entry.escrow_delta_cents)
        .bind(&entry.currency)
        .bind(entry.user_id)
        .bind(&entry.provider_ref)
        .bind(entry.created_at)
        .execute(connection)
        .await
        .map(|done| done.rows_affected())
    })
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
