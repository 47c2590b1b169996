//! Money as the API shows it: a poster's receipts, an operator's view of the calls owed to the
//! payment provider.

use serde::Serialize;
use uuid::Uuid;

use model::states::{PaymentPurpose, PaymentStatus, ProviderCallKind, ProviderCallStatus};
use store::{db::Timestamp, earnings::ReceiptRow, provider_calls::ProviderCallRow};

/// A charge the poster made for a task, and what became of it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = ReceiptRow)]
pub struct Receipt {
    pub payment_id: Uuid,
    pub task_id: Uuid,
    pub task_title: String,
    /// Processing, held, released or refunded.
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
    pub purpose: PaymentPurpose,
}

impl From<&ReceiptRow> for Receipt {
    fn from(row: &ReceiptRow) -> Self {
        Self {
            payment_id: row.payment_id,
            task_id: row.task_id,
            task_title: row.task_title.clone(),
            status: row.status,
            amount_cents: row.amount_cents,
            fee_cents: row.fee_cents,
            refunded_cents: row.refunded_cents,
            currency: row.currency.clone(),
            paid_at: row.paid_at,
            released_at: row.released_at,
            refunded_at: row.refunded_at,
            purpose: row.purpose,
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
#[schema(as = ProviderCallRow)]
pub struct ProviderCall {
    pub id: Uuid,
    pub payment_id: Uuid,
    pub kind: ProviderCallKind,
    pub provider: String,
    pub amount_cents: i64,
    pub status: ProviderCallStatus,
    pub attempts: i32,
    pub next_attempt_at: Timestamp,
    pub last_error: Option<String>,
    pub provider_ref: Option<String>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl From<&ProviderCallRow> for ProviderCall {
    fn from(row: &ProviderCallRow) -> Self {
        Self {
            id: row.id,
            payment_id: row.payment_id,
            kind: row.kind,
            provider: row.provider.clone(),
            amount_cents: row.amount_cents,
            status: row.status,
            attempts: row.attempts,
            next_attempt_at: row.next_attempt_at,
            last_error: row.last_error.clone(),
            provider_ref: row.provider_ref.clone(),
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ParkedCalls {
    pub items: Vec<ProviderCall>,
}
