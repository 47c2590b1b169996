//! Payment rows and the transitions that only concern them. Transitions that
//! also move a task live in `store::escrow`.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::{PaymentPurpose, PaymentStatus};

use crate::{
    db::{Db, Timestamp},
    on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct PaymentRow {
    pub id: Uuid,
    pub task_id: Uuid,
    pub offer_id: Uuid,
    pub poster_id: Uuid,
    pub tasker_id: Uuid,
    pub provider: String,
    pub session_id: String,
    pub checkout_url: String,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub currency: String,
    #[sqlx(try_from = "String")]
    pub status: PaymentStatus,
    pub charge_ref: Option<String>,
    pub payment_intent: Option<String>,
    pub transfer_ref: Option<String>,
    pub refund_ref: Option<String>,
    pub refund_reason: Option<String>,
    pub completion_requested_at: Option<Timestamp>,
    pub expires_at: Timestamp,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub held_at: Option<Timestamp>,
    pub released_at: Option<Timestamp>,
    pub refunded_at: Option<Timestamp>,
    pub refunded_cents: i64,
    pub next_check_at: Option<Timestamp>,
    pub check_attempts: i32,
    #[sqlx(try_from = "String")]
    pub purpose: PaymentPurpose,
    /// The task's own payment, for an increase or a tip.
    pub parent_payment_id: Option<Uuid>,
}

pub const PAYMENT_COLUMNS: &str = "id, task_id, offer_id, poster_id, tasker_id, provider, session_id, checkout_url,
    amount_cents, fee_cents, currency, status, charge_ref, payment_intent, transfer_ref, refund_ref, refund_reason,
    completion_requested_at, expires_at, created_at, updated_at, held_at, released_at, refunded_at, refunded_cents,
    next_check_at, check_attempts, purpose, parent_payment_id";

#[instrument(skip_all)]
pub async fn payment_by_session(db: &Db, session_id: &str) -> sqlx::Result<Option<PaymentRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(format!(
            "select {PAYMENT_COLUMNS} from payments where session_id = $1"
        )))
        .bind(session_id)
        .fetch_optional(pool)
        .await
    })
}

#[instrument(skip_all)]
pub async fn payment(db: &Db, id: Uuid) -> sqlx::Result<Option<PaymentRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(format!(
            "select {PAYMENT_COLUMNS} from payments where id = $1"
        )))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

/// Every payment of a task, oldest first.
#[instrument(skip_all)]
pub async fn payments_for_task(db: &Db, task_id: Uuid) -> sqlx::Result<Vec<PaymentRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(format!(
            "select {PAYMENT_COLUMNS} from payments where task_id = $1 order by id"
        )))
        .bind(task_id)
        .fetch_all(pool)
        .await
    })
}

/// The task's payment in escrow or paid out, if any.
#[instrument(skip_all)]
pub async fn kept_payment_for_task(db: &Db, task_id: Uuid) -> sqlx::Result<Option<PaymentRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(format!(
            "select {PAYMENT_COLUMNS} from payments where task_id = $1 and status in ('held', 'released')
               and parent_payment_id is null"
        )))
        .bind(task_id)
        .fetch_optional(pool)
        .await
    })
}

/// Checkouts the sweep must ask the provider about: pending ones past their
/// expiry, processing ones due for a re-check (their webhook may be lost).
/// Ordered by when they became due, so rows whose checks keep failing (pushed
/// back by [`check_later`]) never starve the others.
#[instrument(skip_all)]
pub async fn due_checks(db: &Db, now: Timestamp, limit: i64) -> sqlx::Result<Vec<PaymentRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(format!(
            "select {PAYMENT_COLUMNS} from payments
             where status in ('pending', 'processing') and next_check_at <= $1
             order by next_check_at limit $2"
        )))
        .bind(now)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// Counts a check that could not be made (or found a processing payment
/// still processing) and schedules the next one.
#[instrument(skip_all)]
pub async fn check_later(db: &Db, id: Uuid, next_check_at: Timestamp) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query(
            "update payments set check_attempts = check_attempts + 1, next_check_at = $2
             where id = $1 and status in ('pending', 'processing')",
        )
        .bind(id)
        .bind(next_check_at)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(())
}

/// Other checkouts of a task still open (to expire them once one is paid).
#[instrument(skip_all)]
pub async fn pending_for_task(db: &Db, task_id: Uuid) -> sqlx::Result<Vec<PaymentRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(format!(
            "select {PAYMENT_COLUMNS} from payments where task_id = $1 and status = 'pending' and parent_payment_id is null"
        )))
        .bind(task_id)
        .fetch_all(pool)
        .await
    })
}

/// Held payments whose tasker asked to be paid before `cutoff` (auto-release).
#[instrument(skip_all)]
pub async fn held_completion_requested_before(db: &Db, cutoff: Timestamp, limit: i64) -> sqlx::Result<Vec<PaymentRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, PaymentRow>(sqlx::AssertSqlSafe(format!(
            "select {PAYMENT_COLUMNS} from payments
             where status = 'held' and parent_payment_id is null
               and completion_requested_at is not null and completion_requested_at <= $1
               and task_id in (select id from tasks where status = 'completion_requested' and open_dispute_id is null)
               and task_id not in (select task_id from cancellation_requests where status = 'pending')
             order by completion_requested_at limit $2"
        )))
        .bind(cutoff)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// Records a webhook event id; false when it was seen before.
#[instrument(skip_all)]
pub async fn record_stripe_event(db: &Db, event_id: &str, kind: &str, now: Timestamp) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query("insert into stripe_events (id, type, received_at) values ($1, $2, $3) on conflict (id) do nothing")
            .bind(event_id)
            .bind(kind)
            .bind(now)
            .execute(pool)
            .await
            .map(|done| done.rows_affected() == 1)
    })
}

#[instrument(skip_all)]
pub async fn stripe_event_seen(db: &Db, event_id: &str) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query_scalar::<_, i64>("select count(*) from stripe_events where id = $1")
            .bind(event_id)
            .fetch_one(pool)
            .await
            .map(|count| count > 0)
    })
}

/// The tasker's payout account, if they started onboarding.
#[instrument(skip_all)]
pub async fn payout_account(db: &Db, user_id: Uuid) -> sqlx::Result<Option<(String, bool)>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, (String, bool)>("select account_ref, ready from payout_accounts where user_id = $1")
            .bind(user_id)
            .fetch_optional(pool)
            .await
    })
}

#[instrument(skip_all)]
pub async fn save_payout_account(
    db: &Db,
    user_id: Uuid,
    provider: &str,
    account_ref: &str,
    ready: bool,
    now: Timestamp,
) -> sqlx::Result<()> {
    on_pool!(db, |pool| {
        sqlx::query(
            "insert into payout_accounts (user_id, provider, account_ref, ready, created_at, updated_at)
             values ($1, $2, $3, $4, $5, $5)
             on conflict (user_id) do update set account_ref = excluded.account_ref, ready = excluded.ready,
                                                 updated_at = excluded.updated_at",
        )
        .bind(user_id)
        .bind(provider)
        .bind(account_ref)
        .bind(ready)
        .bind(now)
        .execute(pool)
        .await
        .map(|done| done.rows_affected())
    })?;
    Ok(())
}

/// The owner and readiness of a payout account, by the provider's reference.
#[instrument(skip_all)]
pub async fn payout_account_by_ref(db: &Db, account_ref: &str) -> sqlx::Result<Option<(Uuid, bool)>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, (Uuid, bool)>("select user_id, ready from payout_accounts where account_ref = $1")
            .bind(account_ref)
            .fetch_optional(pool)
            .await
    })
}

/// Marks the tasker's payout account able to receive transfers. False when
/// it already was (or there is none).
#[instrument(skip_all)]
pub async fn mark_payout_account_ready(db: &Db, user_id: Uuid, now: Timestamp) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query("update payout_accounts set ready = true, updated_at = $2 where user_id = $1 and ready = false")
            .bind(user_id)
            .bind(now)
            .execute(pool)
            .await
            .map(|done| done.rows_affected() == 1)
    })
}
