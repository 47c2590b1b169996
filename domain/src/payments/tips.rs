//! Tips on release: the poster adds a tip when releasing, paid through a
//! checkout of its own and passed to the tasker in full (no service fee). The
//! release never waits for it: a tip that is abandoned or fails is simply not
//! paid, and the poster is told.

use std::{collections::BTreeMap, time::Duration};

use model::{
    payments::process,
    states::{PaymentPurpose, PaymentStatus},
};
use store::{
    db::{Timestamp, new_id},
    escrow::NewPayment,
    payments::{self, PaymentRow},
    price_increases, tasks, tips,
};

use crate::{
    live, notices,
    payments::{
        CheckoutRequest, CheckoutStatus, SESSION_ID_PLACEHOLDER, calls,
        escrow::{self, CheckoutStarted},
    },
    refusal::{DomainError, DomainResult},
    services::Services,
};

/// The smallest and largest tip: A$1 to A$500.
pub const MIN_TIP_CENTS: i64 = 100;
pub const MAX_TIP_CENTS: i64 = 50_000;

pub fn valid_tip(cents: i64) -> bool {
    (MIN_TIP_CENTS..=MAX_TIP_CENTS).contains(&cents)
}

/// Opens the tip's checkout for a task just released by its poster.
pub async fn start(state: &Services, task: &tasks::TaskRow, tip_cents: i64) -> DomainResult<CheckoutStarted> {
    let parent = payments::kept_payment_for_task(&state.db, task.id).await?;
    let parent = parent
        .filter(|parent| parent.status == PaymentStatus::Released)
        .ok_or_else(|| DomainError::Conflict("Only a released task can be tipped".into()))?;
    let payment_id = new_id();
    let now = Timestamp::now();
    let fee_cents = process::charge(PaymentPurpose::Tip).fee_cents(tip_cents);
    let request = CheckoutRequest {
        payment_id,
        description: format!("Tip: {}", task.title),
        amount_cents: tip_cents,
        fee_cents,
        currency: task.currency.clone(),
        success_url: state.link(&format!(
            "/payment-success?session_id={SESSION_ID_PLACEHOLDER}&task_id={}&offer_id={}",
            task.id, parent.offer_id
        )),
        cancel_url: state.link(&format!("/task/{}", task.id)),
        transfer_group: format!("task_{}", task.id),
        metadata: BTreeMap::from([
            ("task_id".to_owned(), task.id.to_string()),
            ("offer_id".to_owned(), parent.offer_id.to_string()),
            ("payment_id".to_owned(), payment_id.to_string()),
            ("tip".to_owned(), "true".to_owned()),
        ]),
        expires_at: now.plus(escrow::CHECKOUT_TTL + Duration::from_secs(60)).0,
    };
    let provider = state.payments.current();
    let session = provider.create_checkout(&request).await?;
    let payment = NewPayment {
        id: payment_id,
        task_id: task.id,
        offer_id: parent.offer_id,
        poster_id: task.poster_id,
        tasker_id: parent.tasker_id,
        provider: provider.name(),
        session_id: &session.id,
        checkout_url: &session.url,
        amount_cents: tip_cents,
        fee_cents,
        currency: &task.currency,
        expires_at: now.plus(escrow::CHECKOUT_TTL),
    };
    if !tips::open(&state.db, &payment, parent.id, now).await? {
        if let Err(error) = provider.expire_checkout(&session.id).await {
            tracing::warn!(error = %error, "could not expire an unused checkout session");
        }
        return Err(DomainError::Conflict("This task already has a tip".into()));
    }
    escrow::publish_payment(state, payment_id).await;
    Ok(CheckoutStarted { session_id: session.id, url: session.url })
}

/// Records what the provider says of a tip's checkout (from `escrow::record`).
pub async fn record(state: &Services, payment: &PaymentRow, status: CheckoutStatus) -> DomainResult<()> {
    let title = tasks::task(&state.db, payment.task_id).await?.map(|task| task.title).unwrap_or_default();
    let now = Timestamp::now();
    let not_paid = |why: &str| notices::tip_not_paid(payment, &title, why, now);
    let notifications = match status {
        CheckoutStatus::Open => return Ok(()),
        CheckoutStatus::Processing { payment_intent } => {
            let notification = notices::tip_processing(payment, &title, now);
            let next_check = now.plus(escrow::PROCESSING_RECHECK);
            let moved = store::escrow::mark_processing(
                &state.db,
                payment,
                payment_intent.as_deref(),
                next_check,
                &notification,
                now,
            )
            .await?;
            if moved { vec![notification] } else { vec![] }
        }
        CheckoutStatus::Paid { charge_ref, payment_intent } => {
            let notifications = notices::tip_paid(payment, &title, now);
            let paid = tips::confirm_paid(
                &state.db,
                payment,
                charge_ref.as_deref(),
                payment_intent.as_deref(),
                &notifications,
                now,
            )
            .await?;
            if !paid {
                return Ok(());
            }
            calls::run_owed(state, payment.id).await;
            notifications
        }
        CheckoutStatus::Failed => {
            let notification = not_paid("Your bank did not confirm the payment.");
            let ended =
                price_increases::end_unpaid(&state.db, payment, PaymentStatus::Failed, Some(&notification), now)
                    .await?;
            if ended { vec![notification] } else { vec![] }
        }
        CheckoutStatus::Expired => {
            let notification = not_paid("The checkout was not completed.");
            let ended =
                price_increases::end_unpaid(&state.db, payment, PaymentStatus::Expired, Some(&notification), now)
                    .await?;
            if ended { vec![notification] } else { vec![] }
        }
    };
    if !notifications.is_empty() {
        live::notifications_created(state, &notifications).await;
        escrow::publish_payment(state, payment.id).await;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tip_is_one_to_five_hundred_dollars() {
        assert!(!valid_tip(99));
        assert!(valid_tip(100));
        assert!(valid_tip(1_000));
        assert!(valid_tip(50_000));
        assert!(!valid_tip(50_001));
        assert!(!valid_tip(-1_000));
    }
}
