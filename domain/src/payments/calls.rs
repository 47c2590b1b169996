//! Making the provider calls the outbox (`store::provider_calls`) says are
//! owed: once right after the commit that owed them, then by the sweep with
//! exponential backoff, until they succeed or are parked for an operator.
//! Each call carries an idempotency key derived from the payment, so a call
//! made twice (two nodes, a crash after the call) moves money once.

use std::time::Duration;

use model::states::{ProviderCallKind, ProviderCallStatus};
use store::{
    db::Timestamp,
    payments,
    provider_calls::{self, ProviderCallRow},
};

use crate::{
    payments::{RefundRequest, TransferRequest},
    services::Services,
};

/// Attempts before a call is parked: with [`retry_delay`] that is about two
/// days of trying (long enough for a tasker to finish setting up payouts).
pub const MAX_ATTEMPTS: i32 = 16;
const FIRST_RETRY: Duration = Duration::from_secs(60);
const LONGEST_RETRY: Duration = Duration::from_secs(6 * 3600);

/// How long to wait after the `attempts`-th failure: 1 min, 2 min, 4 min, … up to 6 h.
pub fn retry_delay(attempts: i32) -> Duration {
    let doublings = attempts.clamp(1, 20) as u32 - 1;
    FIRST_RETRY.saturating_mul(2u32.saturating_pow(doublings)).min(LONGEST_RETRY)
}

/// Makes one owed call and records the outcome. True when it succeeded. A transfer to a
/// suspended tasker, or one whose identity is not verified yet, is not made: it waits in the
/// outbox, its attempts untouched (a suspension's hold is marked, and lasts until an operator
/// reinstates the tasker).
pub async fn run(state: &Services, call: &ProviderCallRow) -> bool {
    let now = Timestamp::now();
    match provider_calls::on_hold(&state.db, call.id, now, state.config.payouts_require_identity).await {
        Ok(false) => {}
        Ok(true) => {
            tracing::info!(call_id = %call.id, payment_id = %call.payment_id,
                "transfer held: the tasker is suspended or not identity-verified yet");
            if let Err(error) = provider_calls::mark_holds(&state.db, now).await {
                tracing::warn!(%error, call_id = %call.id, "could not mark the hold; the sweep marks it");
            }
            return false;
        }
        Err(error) => {
            tracing::warn!(%error, call_id = %call.id, "could not tell whether the call is held; the sweep retries");
            return false;
        }
    }
    let outcome = match make(state, call).await {
        Ok(provider_ref) => provider_calls::succeeded(&state.db, call, &provider_ref, now).await.map(|_| true),
        Err(error) => {
            let attempts = call.attempts + 1;
            let retry_at = (attempts < MAX_ATTEMPTS).then(|| now.plus(retry_delay(attempts)));
            if retry_at.is_none() {
                tracing::error!(call_id = %call.id, payment_id = %call.payment_id, kind = call.kind.as_str(), %error,
                    "provider call parked after {attempts} attempts; an operator must look");
                metrics::counter!("payments_provider_calls_parked_total", "kind" => call.kind.as_str()).increment(1);
            } else {
                tracing::warn!(call_id = %call.id, payment_id = %call.payment_id, kind = call.kind.as_str(), attempts, %error,
                    "provider call failed; retrying later");
            }
            provider_calls::failed(&state.db, call, &error, retry_at, now).await.map(|_| false)
        }
    };
    outcome.unwrap_or_else(|error| {
        tracing::error!(%error, call_id = %call.id, "could not record a provider call's outcome; it is retried");
        false
    })
}

/// Makes the calls a payment owes now (right after the commit that owed them).
pub async fn run_owed(state: &Services, payment_id: uuid::Uuid) {
    match provider_calls::for_payment(&state.db, payment_id).await {
        Ok(calls) => {
            for call in calls.iter().filter(|call| call.status == ProviderCallStatus::Pending) {
                run(state, call).await;
            }
        }
        Err(error) => tracing::warn!(%error, %payment_id, "could not read owed provider calls; the sweep will"),
    }
}

async fn make(state: &Services, call: &ProviderCallRow) -> Result<String, String> {
    let payment = payments::payment(&state.db, call.payment_id)
        .await
        .map_err(|error| error.to_string())?
        .ok_or_else(|| "the payment is gone".to_owned())?;
    let provider = state.payments.named(&call.provider).map_err(|error| error.to_string())?;
    let result = match call.kind {
        ProviderCallKind::Transfer => {
            let destination = payments::payout_account(&state.db, payment.tasker_id)
                .await
                .map_err(|error| error.to_string())?
                .map(|(account_ref, _)| account_ref);
            let request = TransferRequest {
                payment_id: payment.id,
                amount_cents: call.amount_cents,
                currency: payment.currency.clone(),
                destination,
                source_charge: payment.charge_ref.clone(),
                transfer_group: format!("task_{}", payment.task_id),
            };
            provider.transfer(&request).await
        }
        ProviderCallKind::Refund => {
            let request = RefundRequest {
                payment_id: payment.id,
                charge_ref: payment.charge_ref.clone(),
                payment_intent: payment.payment_intent.clone(),
                amount_cents: call.amount_cents,
            };
            provider.refund(&request).await
        }
    };
    result.map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_exponentially_up_to_a_ceiling() {
        let minutes = |attempts| retry_delay(attempts).as_secs() / 60;
        assert_eq!([1, 2, 3, 4, 5].map(minutes), [1, 2, 4, 8, 16]);
        assert_eq!(minutes(9), 256);
        assert_eq!(minutes(10), 360);
        assert_eq!(minutes(11), 360);
        assert_eq!(minutes(1000), 360);
        assert_eq!(minutes(0), 1);
        let total: u64 = (1..MAX_ATTEMPTS).map(|attempts| retry_delay(attempts).as_secs()).sum();
        assert!(total > 24 * 3600 && total < 4 * 24 * 3600, "{total} s of retrying before parking");
    }
}
