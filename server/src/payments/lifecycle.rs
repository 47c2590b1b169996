//! The escrow lifecycle: provider calls around the store's transitions, and
//! the live events published after each commit. Used by the HTTP handlers,
//! the webhook and the background sweep alike.

use std::{collections::BTreeMap, time::Duration};

use serde::Serialize;
use uuid::Uuid;

use super::{CheckoutRequest, CheckoutStatus, RefundRequest, SESSION_ID_PLACEHOLDER, TransferRequest, fees};
use crate::{
    db::{Timestamp, new_id},
    error::{ApiError, ApiResult},
    live,
    state::AppState,
    store::{
        escrow::{self, Confirmation, NewPayment},
        notifications::NotificationRow,
        payments::{self, PaymentRow},
        tasks,
    },
};

/// How long a checkout may stay unpaid before the task returns to `open`.
pub const CHECKOUT_TTL: Duration = Duration::from_secs(30 * 60);
/// Stripe wants at least 30 minutes; our own expiry acts first.
const PROVIDER_SESSION_TTL: Duration = Duration::from_secs(31 * 60);

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CheckoutStarted {
    pub session_id: String,
    pub url: String,
}

/// Opens a checkout for `offer_id` (validated by the caller) and moves the task to `pending_payment`.
pub async fn start_checkout(
    state: &AppState,
    task: &tasks::TaskRow,
    offer_id: Uuid,
    tasker_id: Uuid,
    amount_cents: i64,
) -> ApiResult<CheckoutStarted> {
    let payment_id = new_id();
    let now = Timestamp::now();
    let fee_cents = fees::fee_cents(amount_cents);
    let request = CheckoutRequest {
        payment_id,
        description: task.title.clone(),
        amount_cents,
        fee_cents,
        currency: task.currency.clone(),
        success_url: state.link(&format!(
            "/payment-success?session_id={SESSION_ID_PLACEHOLDER}&task_id={}&offer_id={offer_id}",
            task.id
        )),
        cancel_url: state.link(&format!("/task/{}", task.id)),
        transfer_group: format!("task_{}", task.id),
        metadata: BTreeMap::from([
            ("task_id".to_owned(), task.id.to_string()),
            ("offer_id".to_owned(), offer_id.to_string()),
            ("payment_id".to_owned(), payment_id.to_string()),
        ]),
        expires_at: now.plus(PROVIDER_SESSION_TTL).0,
    };
    let session = state.payments.create_checkout(&request).await?;
    let payment = NewPayment {
        id: payment_id,
        task_id: task.id,
        offer_id,
        poster_id: task.poster_id,
        tasker_id,
        provider: state.payments.name(),
        session_id: &session.id,
        checkout_url: &session.url,
        amount_cents,
        fee_cents,
        currency: &task.currency,
        expires_at: now.plus(CHECKOUT_TTL),
    };
    if !escrow::start_checkout(&state.db, &payment, now).await? {
        // The task or offer moved on while the session was being created: make sure it is never paid.
        if let Err(error) = state.payments.expire_checkout(&session.id).await {
            tracing::warn!(error = %error, "could not expire an unused checkout session");
        }
        return Err(ApiError::Conflict("This offer can no longer be accepted".into()));
    }
    publish_task(state, task.id).await;
    Ok(CheckoutStarted { session_id: session.id, url: session.url })
}

/// Asks the provider about a pending payment and records the answer: held
/// (task assigned), refunded (task taken meanwhile), expired, or still open.
/// Returns the payment as it now stands. Idempotent.
pub async fn settle(state: &AppState, payment: PaymentRow) -> ApiResult<PaymentRow> {
    if payment.status != payments::status::PENDING {
        return Ok(payment);
    }
    match state.payments.checkout_status(&payment.session_id).await? {
        CheckoutStatus::Open => {}
        CheckoutStatus::Paid { charge_ref, payment_intent } => {
            confirm(state, &payment, charge_ref.as_deref(), payment_intent.as_deref()).await?;
        }
        CheckoutStatus::Expired => expire(state, &payment).await?,
    }
    Ok(payments::payment(&state.db, payment.id).await?.unwrap_or(payment))
}

async fn confirm(
    state: &AppState,
    payment: &PaymentRow,
    charge_ref: Option<&str>,
    payment_intent: Option<&str>,
) -> ApiResult<()> {
    let title = tasks::task(&state.db, payment.task_id).await?.map(|task| task.title).unwrap_or_default();
    match escrow::confirm_paid(&state.db, payment, &title, charge_ref, payment_intent, Timestamp::now()).await? {
        Confirmation::Assigned { notifications } => {
            after_commit(state, payment, &notifications).await;
            // Other checkouts of this task must not be paid any more.
            for other in payments::pending_for_task(&state.db, payment.task_id).await? {
                if let Err(error) = state.payments.expire_checkout(&other.session_id).await {
                    tracing::warn!(error = %error, "could not expire a competing checkout session");
                }
            }
        }
        Confirmation::Refunded { notifications } => {
            after_commit(state, payment, &notifications).await;
            let refunded = payments::payment(&state.db, payment.id).await?;
            if let Some(refunded) = refunded {
                refund_now(state, &refunded).await;
            }
        }
        Confirmation::Unchanged => {}
    }
    Ok(())
}

async fn expire(state: &AppState, payment: &PaymentRow) -> ApiResult<()> {
    if let Some(reopened) = escrow::expire_unpaid(&state.db, payment, Timestamp::now()).await? {
        publish_payment(state, payment.id).await;
        if reopened {
            publish_task(state, payment.task_id).await;
        }
    }
    Ok(())
}

/// Ends an abandoned checkout (the sweep, after its 30 minutes): the provider
/// session is expired first, so a payment made at the last second is confirmed instead.
pub async fn abandon(state: &AppState, payment: PaymentRow) -> ApiResult<()> {
    match state.payments.expire_checkout(&payment.session_id).await? {
        CheckoutStatus::Paid { charge_ref, payment_intent } => {
            confirm(state, &payment, charge_ref.as_deref(), payment_intent.as_deref()).await
        }
        CheckoutStatus::Expired | CheckoutStatus::Open => expire(state, &payment).await,
    }
}

/// Pays the tasker for a released payment. Failures are retried by the sweep.
pub async fn transfer_now(state: &AppState, payment: &PaymentRow) {
    let destination = match payments::payout_account(&state.db, payment.tasker_id).await {
        Ok(account) => account.map(|(account_ref, _)| account_ref),
        Err(error) => {
            tracing::warn!(error = %error, "could not read the payout account");
            return;
        }
    };
    let request = TransferRequest {
        payment_id: payment.id,
        amount_cents: fees::payout_cents(payment.amount_cents),
        currency: payment.currency.clone(),
        destination,
        source_charge: payment.charge_ref.clone(),
        transfer_group: format!("task_{}", payment.task_id),
    };
    match state.payments.transfer(&request).await {
        Ok(transfer_ref) => {
            if let Err(error) = payments::set_transfer_ref(&state.db, payment.id, &transfer_ref).await {
                tracing::error!(error = %error, "transfer made but not recorded; the sweep retries with the same key");
            }
        }
        Err(error) => tracing::warn!(error = %error, payment_id = %payment.id, "payout transfer pending"),
    }
}

/// Returns a refunded payment's charge. Failures are retried by the sweep.
pub async fn refund_now(state: &AppState, payment: &PaymentRow) {
    let request = RefundRequest {
        payment_id: payment.id,
        charge_ref: payment.charge_ref.clone(),
        payment_intent: payment.payment_intent.clone(),
        amount_cents: payment.amount_cents,
    };
    match state.payments.refund(&request).await {
        Ok(refund_ref) => {
            if let Err(error) = payments::set_refund_ref(&state.db, payment.id, &refund_ref).await {
                tracing::error!(error = %error, "refund made but not recorded; the sweep retries with the same key");
            }
        }
        Err(error) => tracing::warn!(error = %error, payment_id = %payment.id, "refund pending"),
    }
}

/// `payment.updated` to both parties, the notifications, and the task's new status.
pub async fn after_commit(state: &AppState, payment: &PaymentRow, notifications: &[NotificationRow]) {
    publish_payment(state, payment.id).await;
    live::notifications_created(state, notifications).await;
    publish_task(state, payment.task_id).await;
}

#[derive(Serialize)]
struct PaymentUpdated<'a> {
    id: Uuid,
    task_id: Uuid,
    offer_id: Uuid,
    status: &'a str,
    amount_cents: i64,
    fee_cents: i64,
    currency: &'a str,
}

pub async fn publish_payment(state: &AppState, payment_id: Uuid) {
    let Ok(Some(payment)) = payments::payment(&state.db, payment_id).await else { return };
    let data = PaymentUpdated {
        id: payment.id,
        task_id: payment.task_id,
        offer_id: payment.offer_id,
        status: &payment.status,
        amount_cents: payment.amount_cents,
        fee_cents: payment.fee_cents,
        currency: &payment.currency,
    };
    for user_id in [payment.poster_id, payment.tasker_id] {
        live::publish(state, &live::user_topic(user_id), "payment.updated", &data).await;
    }
}

pub async fn publish_task(state: &AppState, task_id: Uuid) {
    if let Ok(Some(task)) = tasks::task(&state.db, task_id).await {
        live::task_updated(state, task.id, &task.status, task.offer_count).await;
    }
}

/// Releases the task's escrow (poster, or `None` for auto-release), then pays the tasker.
pub async fn release(
    state: &AppState,
    task: &tasks::TaskRow,
    poster_id: Option<Uuid>,
) -> ApiResult<Option<PaymentRow>> {
    let Some((payment, notifications)) =
        crate::store::lifecycle::release(&state.db, task.id, poster_id, &task.title, Timestamp::now()).await?
    else {
        return Ok(None);
    };
    after_commit(state, &payment, &notifications).await;
    transfer_now(state, &payment).await;
    Ok(Some(payment))
}

/// Answers a cancellation request (accept, decline, or lapse), refunding on cancellation.
pub async fn answer_cancellation(
    state: &AppState,
    task: &tasks::TaskRow,
    request: &crate::store::lifecycle::CancellationRow,
    answer: crate::store::lifecycle::Answer,
) -> ApiResult<bool> {
    let Some(tasker_id) = task.assigned_tasker_id else { return Ok(false) };
    let outcome = crate::store::lifecycle::answer_cancellation(
        &state.db,
        request,
        answer,
        task.poster_id,
        tasker_id,
        &task.title,
        Timestamp::now(),
    )
    .await?;
    let Some((refunded, notifications)) = outcome else { return Ok(false) };
    live::notifications_created(state, &notifications).await;
    if let Some(payment) = refunded {
        publish_payment(state, payment.id).await;
        refund_now(state, &payment).await;
    }
    publish_task(state, task.id).await;
    Ok(true)
}
