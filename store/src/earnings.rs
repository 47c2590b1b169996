//! Money as each side sees it across all their tasks: a tasker's earnings
//! (escrow held for them, released, paid out) and a poster's receipts.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::{PaymentPurpose, PaymentStatus, ProviderCallStatus};

use crate::{
    Position,
    db::{Db, Timestamp},
    on_pool,
};

/// A payment that reached escrow for the tasker, with its transfer (if owed).
#[derive(Clone, Debug, FromRow)]
pub struct EarningRow {
    pub payment_id: Uuid,
    pub task_id: Uuid,
    pub task_title: String,
    #[sqlx(try_from = "String")]
    pub status: PaymentStatus,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub refunded_cents: i64,
    pub currency: String,
    pub completion_requested_at: Option<Timestamp>,
    pub held_at: Option<Timestamp>,
    pub released_at: Option<Timestamp>,
    /// `pending` | `done` | `parked`; null before release.
    #[sqlx(rename = "transfer_status")]
    pub transfer_status_text: Option<String>,
    /// When the transfer was last tried or made.
    pub transfer_updated_at: Option<Timestamp>,
    /// The pending transfer waits on an operator's hold (the tasker is or was suspended).
    pub transfer_on_hold: bool,
    /// `task` (the amount that bought the task) or `increase` (a price increase paid later).
    #[sqlx(try_from = "String")]
    pub purpose: PaymentPurpose,
}

impl EarningRow {
    pub fn transfer_status(&self) -> Option<ProviderCallStatus> {
        self.transfer_status_text.as_deref().and_then(ProviderCallStatus::parse)
    }
}

/// Every payment held for the tasker, newest first (by `held_at`, then id): the totals add them all,
/// and the list is answered a page at a time from them. Only payments that were charged count.
#[instrument(skip_all)]
pub async fn earnings_of(db: &Db, tasker_id: Uuid, now: Timestamp) -> sqlx::Result<Vec<EarningRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, EarningRow>(sqlx::AssertSqlSafe(format!(
            "select p.id as payment_id, p.task_id, t.title as task_title, p.status, p.amount_cents, p.fee_cents, p.refunded_cents,
                    p.currency, p.completion_requested_at, p.held_at, p.released_at,
                    c.status as transfer_status, c.updated_at as transfer_updated_at,
                    coalesce(c.status = 'pending' and {hold}, false) as transfer_on_hold, p.purpose
             from payments p
             join tasks t on t.id = p.task_id
             left join provider_calls c on c.payment_id = p.id and c.kind = 'transfer'
             where p.tasker_id = $1 and p.held_at is not null
             order by p.held_at desc, p.id desc",
            hold = crate::provider_calls::transfer_on_hold_of("c", "$2"),
        )))
        .bind(tasker_id)
        .bind(now)
        .fetch_all(pool)
        .await
    })
}

/// A charge the poster made for a task, and what became of it.
#[derive(Clone, Debug, FromRow)]
pub struct ReceiptRow {
    pub payment_id: Uuid,
    pub task_id: Uuid,
    pub task_title: String,
    /// Processing, held, released or refunded.
    #[sqlx(try_from = "String")]
    pub status: PaymentStatus,
    pub amount_cents: i64,
    /// The service fee inside `amount_cents` (deducted from the tasker's payout).
    pub fee_cents: i64,
    pub refunded_cents: i64,
    pub currency: String,
    pub paid_at: Timestamp,
    pub released_at: Option<Timestamp>,
    pub refunded_at: Option<Timestamp>,
    /// `task` (the amount that bought the task) or `increase` (a price increase paid later).
    #[sqlx(try_from = "String")]
    pub purpose: PaymentPurpose,
    /// When the checkout began: the order of the list.
    pub created_at: Timestamp,
}

/// Newest first (by when the checkout began, then id), after `after`: every checkout the poster paid
/// (or is paying by bank debit).
#[instrument(skip_all)]
pub async fn receipts_page(
    db: &Db,
    poster_id: Uuid,
    after: Option<Position>,
    limit: i64,
) -> sqlx::Result<Vec<ReceiptRow>> {
    let (before_time, before_id) = after.map_or((Timestamp(i64::MAX), Uuid::max()), |at| (at.created_at, at.id));
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ReceiptRow>(
            "select p.id as payment_id, p.task_id, t.title as task_title, p.status, p.amount_cents, p.fee_cents,
                    p.refunded_cents, p.currency, coalesce(p.held_at, p.updated_at) as paid_at, p.released_at,
                    p.refunded_at, p.purpose, p.created_at
             from payments p
             join tasks t on t.id = p.task_id
             where p.poster_id = $1 and p.status in ('processing', 'held', 'released', 'refunded')
               and (p.created_at < $2 or (p.created_at = $2 and p.id < $3))
             order by p.created_at desc, p.id desc
             limit $4",
        )
        .bind(poster_id)
        .bind(before_time)
        .bind(before_id)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}
