//! The sandbox payment provider's own records: what a hosted checkout page
//! shows and whether it was paid.

use sqlx::FromRow;
use tracing::instrument;

use crate::{
    db::{Db, Timestamp},
    on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct SandboxSession {
    pub id: String,
    pub description: String,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub currency: String,
    pub success_url: String,
    pub cancel_url: String,
    pub metadata: String,
    pub status: String,
    pub charge_ref: Option<String>,
    pub created_at: Timestamp,
    pub expires_at: Timestamp,
    pub completed_at: Option<Timestamp>,
    /// Paid by bank debit: the money arrives (or the debit fails) at this time.
    pub settles_at: Option<Timestamp>,
    pub debit_fails: bool,
    /// What the sandbox refunded of the charge, and transferred to the tasker out of it.
    pub refunded_cents: i64,
    pub transferred_cents: i64,
}

const COLUMNS: &str = "id, description, amount_cents, fee_cents, currency, success_url, cancel_url, metadata, status,
                       charge_ref, created_at, expires_at, completed_at, settles_at, debit_fails, refunded_cents,
                       transferred_cents";

/// Inserts the session unless one with this id exists (a retried create).
#[instrument(skip_all)]
pub async fn insert(db: &Db, session: &SandboxSession) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query(
            "insert into sandbox_sessions (id, description, amount_cents, fee_cents, currency, success_url, cancel_url,
                                           metadata, status, created_at, expires_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, $10)
             on conflict (id) do nothing",
        )
        .bind(&session.id)
        .bind(&session.description)
        .bind(session.amount_cents)
        .bind(session.fee_cents)
        .bind(&session.currency)
        .bind(&session.success_url)
        .bind(&session.cancel_url)
        .bind(&session.metadata)
        .bind(session.created_at)
        .bind(session.expires_at)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(())
}

#[instrument(skip_all)]
pub async fn session(db: &Db, id: &str) -> sqlx::Result<Option<SandboxSession>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, SandboxSession>(sqlx::AssertSqlSafe(format!(
            "select {COLUMNS} from sandbox_sessions where id = $1"
        )))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// Pays an open, unexpired session; false if it was not payable.
#[instrument(skip_all)]
pub async fn complete(db: &Db, id: &str, charge_ref: &str, now: Timestamp) -> sqlx::Result<bool> {
    complete_by_debit(db, id, charge_ref, None, false, now).await
}

/// Completes an open session paid by bank debit, which settles (or fails) at `settles_at`.
#[instrument(skip_all)]
pub async fn complete_by_debit(
    db: &Db,
    id: &str,
    charge_ref: &str,
    settles_at: Option<Timestamp>,
    fails: bool,
    now: Timestamp,
) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query(
            "update sandbox_sessions set status = 'complete', charge_ref = $2, completed_at = $3, settles_at = $4,
                                         debit_fails = $5
             where id = $1 and status = 'open' and expires_at > $3",
        )
        .bind(id)
        .bind(charge_ref)
        .bind(now)
        .bind(settles_at)
        .bind(fails)
        .execute(pool)
        .await
        .map(|done| done.rows_affected() == 1)
    })
}

/// Expires a session that was not paid; a paid one stays paid.
#[instrument(skip_all)]
pub async fn expire(db: &Db, id: &str) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query("update sandbox_sessions set status = 'expired' where id = $1 and status = 'open'")
            .bind(id)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })?;
    Ok(())
}

/// Records the one refund of a session's charge: true when it is recorded now, or was already at
/// this amount (a retried call), and the refund and the transfer together stay within the charge.
#[instrument(skip_all)]
pub async fn record_refund(db: &Db, id: &str, amount_cents: i64) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query(
            "update sandbox_sessions set refunded_cents = $2
             where id = $1 and $2 > 0 and refunded_cents in (0, $2) and $2 + transferred_cents <= amount_cents",
        )
        .bind(id)
        .bind(amount_cents)
        .execute(pool)
        .await
        .map(|done| done.rows_affected() == 1)
    })
}

/// Records the one transfer out of a session's charge, as [`record_refund`] records the refund.
#[instrument(skip_all)]
pub async fn record_transfer(db: &Db, id: &str, amount_cents: i64) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query(
            "update sandbox_sessions set transferred_cents = $2
             where id = $1 and $2 > 0 and transferred_cents in (0, $2) and $2 + refunded_cents <= amount_cents",
        )
        .bind(id)
        .bind(amount_cents)
        .execute(pool)
        .await
        .map(|done| done.rows_affected() == 1)
    })
}
