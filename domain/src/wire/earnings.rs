//! A tasker's payout account and earnings.

use serde::Serialize;
use uuid::Uuid;

use model::states::PaymentPurpose;
use store::{db::Timestamp, earnings::EarningRow};

use crate::payments::payouts::{self, EarningState};

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PayoutAccountView {
    /// `none` (never started) | `pending` (started, not finished) | `ready` (can receive transfers).
    pub status: &'static str,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct EarningLine {
    pub payment_id: Uuid,
    pub task_id: Uuid,
    /// `task` (the amount that bought the task) or `increase` (a price increase paid later).
    pub purpose: PaymentPurpose,
    pub task_title: String,
    pub state: EarningState,
    /// What the poster paid.
    pub amount_cents: i64,
    pub fee_cents: i64,
    /// What the tasker receives (0 when refunded in full).
    pub payout_cents: i64,
    pub currency: String,
    pub held_at: Option<Timestamp>,
    pub released_at: Option<Timestamp>,
    /// When the transfer was made (`paid_out` only).
    pub paid_out_at: Option<Timestamp>,
    /// The transfer is held by an operator (after a suspension): "On hold: contact support".
    pub on_hold: bool,
}

impl EarningLine {
    pub fn new(row: &EarningRow, state: EarningState) -> Self {
        EarningLine {
            payment_id: row.payment_id,
            task_id: row.task_id,
            purpose: row.purpose,
            task_title: row.task_title.clone(),
            state,
            amount_cents: row.amount_cents,
            fee_cents: row.fee_cents,
            payout_cents: payouts::payout_cents(row),
            currency: row.currency.clone(),
            held_at: row.held_at,
            released_at: row.released_at,
            paid_out_at: (state == EarningState::PaidOut).then_some(row.transfer_updated_at).flatten(),
            on_hold: row.transfer_on_hold,
        }
    }
}

/// Sums of `payout_cents` by state, and the fees taken from released payments.
#[derive(Debug, Default, Serialize, utoipa::ToSchema)]
pub struct EarningTotals {
    pub held_cents: i64,
    pub awaiting_release_cents: i64,
    /// Released but not transferred yet (pending or waiting for payout setup).
    pub released_cents: i64,
    pub paid_out_cents: i64,
    pub fees_cents: i64,
}

impl EarningTotals {
    /// Counts one payment: its payout under its state, and its fee once it is released.
    pub fn add(&mut self, row: &EarningRow, state: EarningState) {
        let payout = payouts::payout_cents(row);
        match state {
            EarningState::Held => self.held_cents += payout,
            EarningState::AwaitingRelease => self.awaiting_release_cents += payout,
            EarningState::WaitingForPayoutSetup | EarningState::WaitingForIdentity | EarningState::TransferPending => {
                self.released_cents += payout
            }
            EarningState::PaidOut => self.paid_out_cents += payout,
            EarningState::Refunded => {}
        }
        if matches!(
            state,
            EarningState::WaitingForPayoutSetup
                | EarningState::WaitingForIdentity
                | EarningState::TransferPending
                | EarningState::PaidOut
        ) {
            self.fees_cents += row.fee_cents;
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Earnings {
    pub currency: String,
    /// `none` | `pending` | `ready`, as `GET /api/me/payout-account`.
    pub payout_account: &'static str,
    /// Transfers wait until the tasker verifies their identity ("Verify your identity to get paid").
    pub identity_needed: bool,
    /// Over every payment held for the tasker, whichever page this is.
    pub totals: EarningTotals,
    /// Newest first, a page at a time (`?cursor=&limit=`, default 50).
    pub items: Vec<EarningLine>,
    pub next_cursor: Option<String>,
    pub has_more: bool,
}
