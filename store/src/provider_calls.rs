//! The outbox of provider calls owed after a commit: a transfer to the tasker
//! when escrow is released, a refund to the poster when it is returned. Each
//! row is written in the transaction of the transition that owes it, so a
//! crash between commit and call loses nothing; the sweep retries failures
//! with backoff and parks a row after too many attempts.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::{ProviderCallKind, ProviderCallStatus};

use crate::{
    audit_log::AuditEntry,
    db::{BeginWrite, Conn, Db, Timestamp, new_id},
    insert_audit_entry, on_conn, on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct ProviderCallRow {
    pub id: Uuid,
    pub payment_id: Uuid,
    #[sqlx(try_from = "String")]
    pub kind: ProviderCallKind,
    pub provider: String,
    pub amount_cents: i64,
    #[sqlx(try_from = "String")]
    pub status: ProviderCallStatus,
    pub attempts: i32,
    pub next_attempt_at: Timestamp,
    pub last_error: Option<String>,
    pub provider_ref: Option<String>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

const CALL_COLUMNS: &str = "id, payment_id, kind, provider, amount_cents, status, attempts, next_attempt_at,
    last_error, provider_ref, created_at, updated_at";

#[instrument(skip_all)]
pub async fn call(db: &Db, id: Uuid) -> sqlx::Result<Option<ProviderCallRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ProviderCallRow>(sqlx::AssertSqlSafe(format!(
            "select {CALL_COLUMNS} from provider_calls where id = $1"
        )))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// A call about to be owed, due at once.
pub struct NewProviderCall<'a> {
    pub id: Uuid,
    pub payment_id: Uuid,
    pub kind: ProviderCallKind,
    pub provider: &'a str,
    pub amount_cents: i64,
    pub now: Timestamp,
}

impl<'a> NewProviderCall<'a> {
    pub fn new(payment_id: Uuid, kind: ProviderCallKind, provider: &'a str, amount_cents: i64, now: Timestamp) -> Self {
        Self { id: new_id(), payment_id, kind, provider, amount_cents, now }
    }

    /// The refund of all of `payment`, owed to its provider.
    pub fn refund_of(payment: &'a super::payments::PaymentRow, now: Timestamp) -> Self {
        Self::new(payment.id, ProviderCallKind::Refund, &payment.provider, payment.amount_cents, now)
    }
}

/// Records a [`NewProviderCall`] inside the caller's transaction. A second call of the same
/// kind for a payment is ignored: money moves once.
pub async fn insert_provider_call(conn: Conn<'_>, call: &NewProviderCall<'_>) -> sqlx::Result<u64> {
    on_conn!(conn, |connection| {
        sqlx::query(
            "insert into provider_calls (id, payment_id, kind, provider, amount_cents, status, attempts,
                                         next_attempt_at, created_at, updated_at)
             values ($1, $2, $3, $4, $5, 'pending', 0, $6, $6, $6)
             on conflict (payment_id, kind) do nothing",
        )
        .bind(call.id)
        .bind(call.payment_id)
        .bind(call.kind.as_str())
        .bind(call.provider)
        .bind(call.amount_cents)
        .bind(call.now)
        .execute(connection)
        .await
        .map(|done| done.rows_affected())
    })
}

/// Whether the transfer call `call` (a table alias) pays a tasker suspended at `now` (a bind
/// parameter).
fn tasker_suspended(call: &str, now: &str) -> String {
    format!(
        "exists (select 1 from payments hold_p join users hold_u on hold_u.id = hold_p.tasker_id
                 where hold_p.id = {call}.payment_id and hold_u.suspended_at is not null
                   and (hold_u.suspended_until is null or hold_u.suspended_until > {now}))"
    )
}

/// SQL true when the call `call` is a transfer on an operator's hold at `now`: its tasker is
/// suspended, or was and no operator has reinstated them yet (`held_at`). It waits in the
/// outbox, its attempts untouched, until reinstatement (or an operator's refund).
pub fn transfer_on_hold_of(call: &str, now: &str) -> String {
    format!("({call}.kind = 'transfer' and ({call}.held_at is not null or {}))", tasker_suspended(call, now))
}

/// Marks every pending transfer to a tasker suspended at `now` as held, so the hold outlives a
/// suspension that ends by itself. The number marked.
#[instrument(skip_all)]
pub async fn mark_holds(db: &Db, now: Timestamp) -> sqlx::Result<u64> {
    on_pool!(db, |pool| {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "update provider_calls set held_at = $1
             where kind = 'transfer' and status = 'pending' and held_at is null and {}",
            tasker_suspended("provider_calls", "$1")
        )))
        .bind(now)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })
}

/// SQL true when the call `call` is a transfer waiting for its tasker to verify their identity,
/// when `required` (a bind parameter: `PAYOUTS_REQUIRE_IDENTITY`) is true. It waits in the outbox,
/// its attempts untouched, and goes out once the tasker is verified.
pub fn transfer_awaiting_identity_of(call: &str, required: &str) -> String {
    format!(
        "({required} and {call}.kind = 'transfer'
          and exists (select 1 from payments id_p join profiles id_pr on id_pr.id = id_p.tasker_id
                      where id_p.id = {call}.payment_id and id_pr.identity_verified_at is null))"
    )
}

/// Pending calls due by `now`, longest-waiting first (held transfers wait). A failing call
/// is pushed back by its backoff, so it never keeps others from their turn.
#[instrument(skip_all)]
pub async fn due(db: &Db, now: Timestamp, limit: i64, identity_required: bool) -> sqlx::Result<Vec<ProviderCallRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ProviderCallRow>(sqlx::AssertSqlSafe(format!(
            "select {CALL_COLUMNS} from provider_calls
             where status = 'pending' and next_attempt_at <= $1 and not {hold} and not {identity}
             order by next_attempt_at, id limit $2",
            hold = transfer_on_hold_of("provider_calls", "$1"),
            identity = transfer_awaiting_identity_of("provider_calls", "$3"),
        )))
        .bind(now)
        .bind(limit)
        .bind(identity_required)
        .fetch_all(pool)
        .await
    })
}

/// The calls a payment owes, oldest first.
#[instrument(skip_all)]
pub async fn for_payment(db: &Db, payment_id: Uuid) -> sqlx::Result<Vec<ProviderCallRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ProviderCallRow>(sqlx::AssertSqlSafe(format!(
            "select {CALL_COLUMNS} from provider_calls where payment_id = $1 order by id"
        )))
        .bind(payment_id)
        .fetch_all(pool)
        .await
    })
}

/// Transfers to `tasker_id` not made yet (pending or parked), oldest first:
/// what goes out once their payout account is ready.
#[instrument(skip_all)]
pub async fn unsent_transfers_to(db: &Db, tasker_id: Uuid) -> sqlx::Result<Vec<ProviderCallRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ProviderCallRow>(sqlx::AssertSqlSafe(format!(
            "select {CALL_COLUMNS} from provider_calls
             where kind = 'transfer' and status in ('pending', 'parked')
               and payment_id in (select id from payments where tasker_id = $1)
             order by id"
        )))
        .bind(tasker_id)
        .fetch_all(pool)
        .await
    })
}

/// Calls given up on, for operators to look at (newest first).
#[instrument(skip_all)]
pub async fn parked(db: &Db, limit: i64) -> sqlx::Result<Vec<ProviderCallRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ProviderCallRow>(sqlx::AssertSqlSafe(format!(
            "select {CALL_COLUMNS} from provider_calls where status = 'parked' order by updated_at desc limit $1"
        )))
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// The call was made: done, and its reference kept on the payment too.
/// False when another node recorded it first.
#[instrument(skip_all)]
pub async fn succeeded(db: &Db, call: &ProviderCallRow, provider_ref: &str, now: Timestamp) -> sqlx::Result<bool> {
    let payment_column = match call.kind {
        ProviderCallKind::Transfer => "transfer_ref",
        ProviderCallKind::Refund => "refund_ref",
    };
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let done = sqlx::query(
                "update provider_calls set status = 'done', provider_ref = $2, attempts = attempts + 1,
                                           last_error = null, updated_at = $3
                 where id = $1 and status <> 'done'",
            )
            .bind(call.id)
            .bind(provider_ref)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "update payments set {payment_column} = $2 where id = $1 and {payment_column} is null"
            )))
            .bind(call.payment_id)
            .bind(provider_ref)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(done == 1)
        }
        .await
    })
}

/// The call failed: try again at `retry_at`, or park it when `retry_at` is `None`.
#[instrument(skip_all)]
pub async fn failed(
    db: &Db,
    call: &ProviderCallRow,
    error: &str,
    retry_at: Option<Timestamp>,
    now: Timestamp,
) -> sqlx::Result<()> {
    let status = if retry_at.is_some() { ProviderCallStatus::Pending } else { ProviderCallStatus::Parked };
    on_pool!(db, |pool| {
        sqlx::query(
            "update provider_calls set attempts = attempts + 1, last_error = $2, status = $3,
                                       next_attempt_at = $4, updated_at = $5
             where id = $1 and status = 'pending'",
        )
        .bind(call.id)
        .bind(error)
        .bind(status.as_str())
        .bind(retry_at.unwrap_or(call.next_attempt_at))
        .bind(now)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(())
}

/// A parked call is tried again now, with a fresh count (the tasker's payout account is ready):
/// the call as it is then, or `None` when it was no longer parked.
#[instrument(skip_all)]
pub async fn unpark(db: &Db, id: Uuid, now: Timestamp) -> sqlx::Result<Option<ProviderCallRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ProviderCallRow>(sqlx::AssertSqlSafe(format!(
            "update provider_calls set status = 'pending', attempts = 0, next_attempt_at = $2, updated_at = $2
             where id = $1 and status = 'parked'
             returning {CALL_COLUMNS}"
        )))
        .bind(id)
        .bind(now)
        .fetch_optional(pool)
        .await
    })
}

/// An operator asks for a parked call to be tried again now, with a fresh count; the
/// audit row is written with it.
#[instrument(skip_all)]
pub async fn unpark_by_operator(db: &Db, id: Uuid, audit: &AuditEntry<'_>) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        async {
            let mut tx = pool.begin_write().await?;
            let unparked = sqlx::query(
                "update provider_calls set status = 'pending', attempts = 0, next_attempt_at = $2, updated_at = $2
                 where id = $1 and status = 'parked'",
            )
            .bind(id)
            .bind(audit.created_at)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if unparked {
                insert_audit_entry!(tx, audit)?;
                tx.commit().await?;
            }
            Ok(unparked)
        }
        .await
    })
}

/// Whether this call is a transfer held while its tasker is suspended (or, with
/// `identity_required`, not identity-verified).
#[instrument(skip_all)]
pub async fn on_hold(db: &Db, id: Uuid, now: Timestamp, identity_required: bool) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, bool>(sqlx::AssertSqlSafe(format!(
            "select {} or {} from provider_calls where id = $2",
            transfer_on_hold_of("provider_calls", "$1"),
            transfer_awaiting_identity_of("provider_calls", "$3"),
        )))
        .bind(now)
        .bind(id)
        .bind(identity_required)
        .fetch_optional(pool)
        .await
        .map(|held| held.unwrap_or(false))
    })
}
