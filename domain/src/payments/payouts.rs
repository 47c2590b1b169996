//! Taskers' payouts: where each payment stands for them, and what happens
//! when their payout account becomes ready.
//!
//! Release never waits for the tasker's payout setup: the poster is done, the
//! task completes, and the transfer is owed in the outbox. Until the account
//! can receive it the transfer keeps failing and retrying (Stripe refuses a
//! transfer without a destination), so the Earnings page says it is waiting
//! for their setup, and finishing the setup sends it at once.

use serde::Serialize;
use uuid::Uuid;

use model::states::{PaymentStatus, ProviderCallStatus};
use store::{db::Timestamp, earnings::EarningRow, payments, provider_calls};

use crate::{payments::calls, services::Services};

/// How long a transfer takes to reach a tasker's bank, as they are told.
pub const PAYOUT_TIME: &str = "3-5 business days";

/// Where one payment stands for the tasker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EarningState {
    /// In escrow; the tasker has not asked to be paid yet.
    Held,
    /// In escrow; the tasker asked to be paid and the poster has not released yet.
    AwaitingRelease,
    /// Released; the transfer goes out once the tasker's payout account is ready.
    WaitingForPayoutSetup,
    /// Released; the transfer goes out once the tasker's identity is verified.
    WaitingForIdentity,
    /// Released; the transfer is being made (or retried).
    TransferPending,
    /// Transferred to the tasker's payout account.
    PaidOut,
    /// Returned to the poster in full.
    Refunded,
}

/// What the tasker receives from a payment: the amount less any refund and the fee on the rest.
pub fn payout_cents(row: &EarningRow) -> i64 {
    payout_of(row.status, row.amount_cents, row.refunded_cents, row.fee_cents)
}

/// [`payout_cents`] from a payment's own figures: nothing once refunded in full.
pub fn payout_of(status: PaymentStatus, amount_cents: i64, refunded_cents: i64, fee_cents: i64) -> i64 {
    if status == PaymentStatus::Refunded { 0 } else { amount_cents - refunded_cents - fee_cents }
}

pub fn earning_state(row: &EarningRow, payout_account_ready: bool) -> EarningState {
    match (row.status, row.transfer_status()) {
        (PaymentStatus::Refunded, _) => EarningState::Refunded,
        (PaymentStatus::Released, Some(ProviderCallStatus::Done)) => EarningState::PaidOut,
        (PaymentStatus::Released, _) if !payout_account_ready => EarningState::WaitingForPayoutSetup,
        (PaymentStatus::Released, _) => EarningState::TransferPending,
        _ if row.completion_requested_at.is_some() => EarningState::AwaitingRelease,
        _ => EarningState::Held,
    }
}

/// The tasker's payout account can now receive transfers: record it and send
/// the transfers that were waiting (parked ones too: the wait is over).
pub async fn account_ready(state: &Services, user_id: Uuid) -> sqlx::Result<()> {
    let now = Timestamp::now();
    payments::mark_payout_account_ready(&state.db, user_id, now).await?;
    for call in provider_calls::unsent_transfers_to(&state.db, user_id).await? {
        let call = match call.status {
            ProviderCallStatus::Parked => match provider_calls::unpark(&state.db, call.id, now).await? {
                Some(unparked) => unparked,
                None => continue,
            },
            _ => call,
        };
        calls::run(state, &call).await;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(status: PaymentStatus, requested: bool, transfer: Option<ProviderCallStatus>) -> EarningRow {
        EarningRow {
            payment_id: Uuid::nil(),
            task_id: Uuid::nil(),
            task_title: "Fix the fence".into(),
            status,
            amount_cents: 10_000,
            fee_cents: 1_000,
            refunded_cents: 0,
            currency: "aud".into(),
            completion_requested_at: requested.then_some(Timestamp(1)),
            held_at: Some(Timestamp(1)),
            released_at: None,
            transfer_status_text: transfer.map(|status| status.as_str().to_owned()),
            transfer_updated_at: None,
            transfer_on_hold: false,
            purpose: model::states::PaymentPurpose::Task,
        }
    }

    #[test]
    fn escrow_is_held_until_the_tasker_asks_then_awaits_release() {
        assert_eq!(earning_state(&row(PaymentStatus::Held, false, None), true), EarningState::Held);
        assert_eq!(earning_state(&row(PaymentStatus::Held, true, None), false), EarningState::AwaitingRelease);
    }

    #[test]
    fn a_released_transfer_waits_for_payout_setup_only_while_there_is_none() {
        assert_eq!(
            earning_state(&row(PaymentStatus::Released, true, Some(ProviderCallStatus::Pending)), false),
            EarningState::WaitingForPayoutSetup
        );
        assert_eq!(
            earning_state(&row(PaymentStatus::Released, true, Some(ProviderCallStatus::Parked)), false),
            EarningState::WaitingForPayoutSetup
        );
        assert_eq!(
            earning_state(&row(PaymentStatus::Released, true, Some(ProviderCallStatus::Pending)), true),
            EarningState::TransferPending
        );
        assert_eq!(
            earning_state(&row(PaymentStatus::Released, true, Some(ProviderCallStatus::Done)), false),
            EarningState::PaidOut
        );
    }

    #[test]
    fn the_payout_is_the_amount_less_refund_and_fee() {
        assert_eq!(payout_cents(&row(PaymentStatus::Released, true, Some(ProviderCallStatus::Done))), 9_000);
        let split = EarningRow {
            refunded_cents: 4_000,
            fee_cents: 600,
            ..row(PaymentStatus::Released, true, Some(ProviderCallStatus::Done))
        };
        assert_eq!(payout_cents(&split), 5_400);
        assert_eq!(payout_cents(&row(PaymentStatus::Refunded, false, None)), 0);
        assert_eq!(earning_state(&row(PaymentStatus::Refunded, false, None), true), EarningState::Refunded);
    }
}
