//! An operator's record of one person: their tasks (posted or assigned), offers, disputes and
//! payments, newest first, each list cut at a limit.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::states::{
    DisputeOutcome, DisputeReason, DisputeStatus, OfferStatus, PaymentStatus, ProviderCallStatus, TaskStatus,
};

use crate::{
    db::{Db, Timestamp},
    on_pool,
};

/// A task the person posted or was assigned, with its text as written (removed ones too).
#[derive(Clone, Debug, FromRow)]
pub struct RecordTask {
    pub id: Uuid,
    pub title: String,
    #[sqlx(try_from = "String")]
    pub status: TaskStatus,
    pub budget_cents: i64,
    /// `poster` | `tasker`.
    pub role: String,
    pub created_at: Timestamp,
}

#[derive(Clone, Debug, FromRow)]
pub struct RecordOffer {
    pub id: Uuid,
    pub task_id: Uuid,
    pub task_title: String,
    pub amount_cents: i64,
    pub message: String,
    pub message_removed: bool,
    #[sqlx(try_from = "String")]
    pub status: OfferStatus,
    pub created_at: Timestamp,
}

/// A dispute on a task the person posted or was assigned.
#[derive(Clone, Debug, FromRow)]
pub struct RecordDispute {
    pub id: Uuid,
    pub task_id: Uuid,
    pub task_title: String,
    pub opened_by: Uuid,
    #[sqlx(try_from = "String")]
    pub reason: DisputeReason,
    #[sqlx(try_from = "String")]
    pub status: DisputeStatus,
    /// Once resolved (`outcome()`).
    #[sqlx(rename = "outcome")]
    pub outcome_text: Option<String>,
    pub created_at: Timestamp,
}

impl RecordDispute {
    pub fn outcome(&self) -> Option<DisputeOutcome> {
        self.outcome_text.as_deref().and_then(DisputeOutcome::parse)
    }
}

/// A payment the person made (as poster) or was owed (as tasker).
#[derive(Clone, Debug, FromRow)]
pub struct RecordPayment {
    pub id: Uuid,
    pub task_id: Uuid,
    pub task_title: String,
    /// `poster` | `tasker`.
    pub role: String,
    #[sqlx(try_from = "String")]
    pub status: PaymentStatus,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub refunded_cents: i64,
    pub currency: String,
    /// The transfer to the tasker: `pending` | `done` | `parked`; null when none is owed.
    #[sqlx(rename = "transfer_status")]
    pub transfer_status_text: Option<String>,
    /// The transfer waits on an operator's hold (see `store::provider_calls`).
    pub transfer_on_hold: bool,
    pub created_at: Timestamp,
}

impl RecordPayment {
    pub fn transfer_status(&self) -> Option<ProviderCallStatus> {
        self.transfer_status_text.as_deref().and_then(ProviderCallStatus::parse)
    }
}

#[instrument(skip_all)]
pub async fn tasks_of(db: &Db, user_id: Uuid, limit: i64) -> sqlx::Result<Vec<RecordTask>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, RecordTask>(
            "select id, title, status, budget_cents,
                    case when poster_id = $1 then 'poster' else 'tasker' end as role, created_at
             from tasks where poster_id = $1 or assigned_tasker_id = $1
             order by created_at desc, id desc limit $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

#[instrument(skip_all)]
pub async fn offers_of(db: &Db, user_id: Uuid, limit: i64) -> sqlx::Result<Vec<RecordOffer>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, RecordOffer>(
            "select o.id, o.task_id, t.title as task_title, o.amount_cents, o.message,
                    o.message_removed_at is not null as message_removed, o.status, o.created_at
             from offers o join tasks t on t.id = o.task_id
             where o.tasker_id = $1
             order by o.created_at desc, o.id desc limit $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

#[instrument(skip_all)]
pub async fn disputes_of(db: &Db, user_id: Uuid, limit: i64) -> sqlx::Result<Vec<RecordDispute>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, RecordDispute>(
            "select d.id, d.task_id, t.title as task_title, d.opened_by, d.reason, d.status, d.outcome, d.created_at
             from disputes d join payments p on p.id = d.payment_id join tasks t on t.id = d.task_id
             where p.poster_id = $1 or p.tasker_id = $1
             order by d.created_at desc, d.id desc limit $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// Charged payments only (not checkouts that were abandoned or never paid).
#[instrument(skip_all)]
pub async fn payments_of(db: &Db, user_id: Uuid, now: Timestamp, limit: i64) -> sqlx::Result<Vec<RecordPayment>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, RecordPayment>(sqlx::AssertSqlSafe(format!(
            "select p.id, p.task_id, t.title as task_title,
                    case when p.poster_id = $1 then 'poster' else 'tasker' end as role,
                    p.status, p.amount_cents, p.fee_cents, p.refunded_cents, p.currency,
                    c.status as transfer_status,
                    coalesce(c.status = 'pending' and ({hold}), false) as transfer_on_hold,
                    p.created_at
             from payments p
             join tasks t on t.id = p.task_id
             left join provider_calls c on c.payment_id = p.id and c.kind = 'transfer'
             where (p.poster_id = $1 or p.tasker_id = $1) and p.held_at is not null
             order by p.created_at desc, p.id desc limit $3",
            hold = crate::provider_calls::transfer_on_hold_of("c", "$2"),
        )))
        .bind(user_id)
        .bind(now)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}
