//! What the escrow's routes answer: a checkout's verification, the task's payment as its two
//! parties see it, the payment provider's webhook receipt and the payout onboarding link.

use serde::Serialize;
use uuid::Uuid;

use model::states::{PaymentStatus, TaskStatus};
use store::{db::Timestamp, payments::PaymentRow};

use crate::payments::payouts;

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PaymentInfo {
    pub amount_cents: i64,
    pub currency: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct VerifyResult {
    pub success: bool,
    pub message: String,
    pub payment_info: PaymentInfo,
    pub payment_status: PaymentStatus,
    pub task_status: TaskStatus,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct WebhookReceipt {
    pub received: bool,
    /// False for events we do not act on, unknown sessions and replays.
    pub handled: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PaymentView {
    pub id: Uuid,
    pub task_id: Uuid,
    pub offer_id: Uuid,
    pub status: PaymentStatus,
    pub amount_cents: i64,
    pub fee_cents: i64,
    /// What the tasker receives: the amount less any refund and the fee on the rest.
    pub payout_cents: i64,
    /// Returned to the poster (all of it on a refund, part of it when a dispute was split).
    pub refunded_cents: i64,
    pub currency: String,
    pub held_at: Option<Timestamp>,
    pub released_at: Option<Timestamp>,
    pub refunded_at: Option<Timestamp>,
    /// Price increases paid into this escrow (held or paid out with it), in cents.
    pub increases_cents: i64,
    /// The whole escrow: the amount and the increases.
    pub total_cents: i64,
}

impl From<&PaymentRow> for PaymentView {
    fn from(row: &PaymentRow) -> Self {
        Self {
            id: row.id,
            task_id: row.task_id,
            offer_id: row.offer_id,
            status: row.status,
            amount_cents: row.amount_cents,
            fee_cents: row.fee_cents,
            payout_cents: payouts::payout_of(row.status, row.amount_cents, row.refunded_cents, row.fee_cents),
            refunded_cents: row.refunded_cents,
            currency: row.currency.clone(),
            held_at: row.held_at,
            released_at: row.released_at,
            refunded_at: row.refunded_at,
            increases_cents: 0,
            total_cents: row.amount_cents,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PayoutOnboarding {
    /// Where to finish setting up payouts; null when nothing is needed.
    pub url: Option<String>,
    pub ready: bool,
}
