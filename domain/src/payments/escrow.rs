//! The escrow's transitions: provider calls around the store's transitions, and
//! the live events published after each commit. Used by the HTTP handlers,
//! the webhook and the background sweep alike.

use std::{collections::BTreeMap, time::Duration};

use serde::Serialize;
use uuid::Uuid;

use model::{
    payments::{
        process::{self, Event, Timer},
        rules::Party,
    },
    states::{OfferStatus, PaymentPurpose, PaymentStatus},
};
use store::{
    cancellations::{Answer, CancellationRow},
    db::{Timestamp, new_id},
    escrow::{Confirmation, ConfirmationNotices, NewPayment},
    notifications::NotificationRow,
    payments::{self, PaymentRow},
    tasks,
};

use crate::{
    live,
    notices::{self, ReleasedBy},
    payments::{CheckoutRequest, CheckoutStatus, PaymentError, PaymentProvider, SESSION_ID_PLACEHOLDER, calls},
    rate_limit::CHECKOUT_SESSIONS_PER_TASK,
    refusal::{DomainError, DomainResult},
    services::Services,
    wire::events::{LiveEvent, PaymentUpdated},
};

/// How long a checkout may stay unpaid before the task returns to `open`.
pub const CHECKOUT_TTL: Duration = Timer::CheckoutExpiry.after();
/// Stripe wants at least 30 minutes; our own expiry acts first.
const PROVIDER_SESSION_TTL: Duration = Duration::from_secs(31 * 60);
/// How soon a processing payment is first re-checked with the provider, in
/// case its settlement webhook never arrives (the sandbox sends none); the
/// sweep then backs off to every 6 hours (direct debits take days).
pub const PROCESSING_RECHECK: Duration = Duration::from_secs(2 * 60);

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CheckoutStarted {
    pub session_id: String,
    pub url: String,
}

/// Accept & Pay: `poster_id` opens the checkout of an offer on their task, which becomes
/// `pending_payment`. Unknown task or offer not found; the poster only (403), only while open
/// (409); at most 10 sessions per task per 10 minutes (429); only a pending offer (409).
pub async fn accept_and_pay(
    state: &Services,
    poster_id: Uuid,
    task_id: Uuid,
    offer_id: Uuid,
) -> DomainResult<CheckoutStarted> {
    let task = crate::marketplace::tasks::task_or_not_found(state, task_id).await?;
    let offer = store::offers::offer(&state.db, offer_id).await?.filter(|offer| offer.task_id == task.id);
    let offer = offer.ok_or_else(|| DomainError::not_found("Offer"))?;
    let party = Party::of(poster_id, task.poster_id, task.assigned_tasker_id);
    process::permit(Event::AcceptOffer, party, task.status, task.open_dispute_id)?;
    state.limiter.check(&format!("checkout:{}", task.id), CHECKOUT_SESSIONS_PER_TASK).await?;
    if offer.status != OfferStatus::Pending {
        return Err(DomainError::Conflict("This offer can no longer be accepted".into()));
    }
    start_checkout(state, &task, offer.id, offer.tasker_id, offer.amount_cents).await
}

/// Opens a checkout for `offer_id` and moves the task to `pending_payment`.
async fn start_checkout(
    state: &Services,
    task: &tasks::TaskRow,
    offer_id: Uuid,
    tasker_id: Uuid,
    amount_cents: i64,
) -> DomainResult<CheckoutStarted> {
    let payment_id = new_id();
    let now = Timestamp::now();
    let fee_cents = process::charge(PaymentPurpose::Task).fee_cents(amount_cents);
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
    let provider = state.payments.current();
    let session = provider.create_checkout(&request).await?;
    let payment = NewPayment {
        id: payment_id,
        task_id: task.id,
        offer_id,
        poster_id: task.poster_id,
        tasker_id,
        provider: provider.name(),
        session_id: &session.id,
        checkout_url: &session.url,
        amount_cents,
        fee_cents,
        currency: &task.currency,
        expires_at: now.plus(CHECKOUT_TTL),
    };
    if !store::escrow::start_checkout(&state.db, &payment, now).await? {
        // The task or offer moved on (or the offer's amount changed) while the
        // session was being created: make sure it is never paid.
        if let Err(error) = provider.expire_checkout(&session.id).await {
            tracing::warn!(error = %error, "could not expire an unused checkout session");
        }
        return Err(DomainError::Conflict(
            "This offer changed or can no longer be accepted; reload the task and try again".into(),
        ));
    }
    publish_task(state, task.id).await;
    Ok(CheckoutStarted { session_id: session.id, url: session.url })
}

fn provider_of<'a>(state: &'a Services, payment: &PaymentRow) -> Result<&'a dyn PaymentProvider, PaymentError> {
    state.payments.named(&payment.provider)
}

/// Asks the provider about a pending or processing payment and records the
/// answer: held (task assigned), refunded (task taken meanwhile), processing
/// (settles later), failed, expired, or still open. Returns the payment as it
/// now stands. Idempotent.
pub async fn settle(state: &Services, payment: PaymentRow) -> DomainResult<PaymentRow> {
    if !matches!(payment.status, PaymentStatus::Pending | PaymentStatus::Processing) {
        return Ok(payment);
    }
    let status = provider_of(state, &payment)?.checkout_status(&payment.session_id).await?;
    record(state, &payment, status).await?;
    Ok(payments::payment(&state.db, payment.id).await?.unwrap_or(payment))
}

/// Records what the provider says of a pending or processing checkout.
async fn record(state: &Services, payment: &PaymentRow, status: CheckoutStatus) -> DomainResult<()> {
    match payment.purpose {
        PaymentPurpose::Task => record_task_payment(state, payment, status).await,
        PaymentPurpose::Increase => super::increases::record(state, payment, status).await,
        PaymentPurpose::Tip => super::tips::record(state, payment, status).await,
    }
}

/// Records what the provider says of the checkout that buys a task.
async fn record_task_payment(state: &Services, payment: &PaymentRow, status: CheckoutStatus) -> DomainResult<()> {
    match status {
        CheckoutStatus::Open => Ok(()),
        CheckoutStatus::Processing { payment_intent } => processing(state, payment, payment_intent.as_deref()).await,
        CheckoutStatus::Paid { charge_ref, payment_intent } => {
            confirm(state, payment, charge_ref.as_deref(), payment_intent.as_deref()).await
        }
        CheckoutStatus::Failed => fail(state, payment).await,
        CheckoutStatus::Expired => expire(state, payment).await,
    }
}

async fn task_title(state: &Services, task_id: Uuid) -> DomainResult<String> {
    Ok(tasks::task(&state.db, task_id).await?.map(|task| task.title).unwrap_or_default())
}

async fn confirm(
    state: &Services,
    payment: &PaymentRow,
    charge_ref: Option<&str>,
    payment_intent: Option<&str>,
) -> DomainResult<()> {
    let title = task_title(state, payment.task_id).await?;
    let now = Timestamp::now();
    let notices = ConfirmationNotices {
        assigned: vec![notices::offer_accepted(payment, &title, now), notices::payment_held(payment, &title, now)],
        not_selected: notices::offer_not_selected(payment.task_id, &title),
        refunded: notices::payment_refunded_task_gone(payment, &title, now),
    };
    match store::escrow::confirm_paid(&state.db, payment, &notices, charge_ref, payment_intent, now).await? {
        Confirmation::Assigned { notifications } => {
            after_commit(state, payment, &notifications).await;
            // Other checkouts of this task must not be paid any more.
            for other in payments::pending_for_task(&state.db, payment.task_id).await? {
                let expired = match provider_of(state, &other) {
                    Ok(provider) => provider.expire_checkout(&other.session_id).await.map(|_| ()),
                    Err(error) => Err(error),
                };
                if let Err(error) = expired {
                    tracing::warn!(error = %error, "could not expire a competing checkout session");
                }
            }
        }
        Confirmation::Refunded { notifications } => {
            after_commit(state, payment, &notifications).await;
            calls::run_owed(state, payment.id).await;
        }
        Confirmation::Unchanged => {}
    }
    Ok(())
}

async fn processing(state: &Services, payment: &PaymentRow, payment_intent: Option<&str>) -> DomainResult<()> {
    let now = Timestamp::now();
    let title = task_title(state, payment.task_id).await?;
    let notification = notices::payment_processing(payment, &title, now);
    let next_check = now.plus(PROCESSING_RECHECK);
    if store::escrow::mark_processing(&state.db, payment, payment_intent, next_check, &notification, now).await? {
        publish_payment(state, payment.id).await;
        live::notifications_created(state, &[notification]).await;
    }
    Ok(())
}

async fn fail(state: &Services, payment: &PaymentRow) -> DomainResult<()> {
    let now = Timestamp::now();
    let title = task_title(state, payment.task_id).await?;
    let notification = notices::payment_failed(payment, &title, now);
    if let Some(reopened) = store::escrow::fail_processing(&state.db, payment, &notification, now).await? {
        publish_payment(state, payment.id).await;
        live::notifications_created(state, &[notification]).await;
        if reopened {
            publish_task(state, payment.task_id).await;
        }
    }
    Ok(())
}

async fn expire(state: &Services, payment: &PaymentRow) -> DomainResult<()> {
    if let Some(reopened) = store::escrow::expire_unpaid(&state.db, payment, Timestamp::now()).await? {
        publish_payment(state, payment.id).await;
        if reopened {
            publish_task(state, payment.task_id).await;
        }
    }
    Ok(())
}

/// The sweep's look at a pending checkout past its 30 minutes, or a
/// processing one due for a re-check. A pending session is expired at the
/// provider first, so a payment made at the last second is confirmed
/// instead; a processing one is only asked about (it never expires).
pub async fn check(state: &Services, payment: PaymentRow) -> DomainResult<()> {
    let provider = provider_of(state, &payment)?;
    let status = if payment.status == PaymentStatus::Pending {
        provider.expire_checkout(&payment.session_id).await?
    } else {
        provider.checkout_status(&payment.session_id).await?
    };
    record(state, &payment, status).await
}

/// `payment.updated` to both parties, the notifications, and the task's new status.
pub async fn after_commit(state: &Services, payment: &PaymentRow, notifications: &[NotificationRow]) {
    publish_payment(state, payment.id).await;
    live::notifications_created(state, notifications).await;
    publish_task(state, payment.task_id).await;
}

pub async fn publish_payment(state: &Services, payment_id: Uuid) {
    let Ok(Some(payment)) = payments::payment(&state.db, payment_id).await else { return };
    let event = LiveEvent::PaymentUpdated(PaymentUpdated::from(&payment));
    for user_id in [payment.poster_id, payment.tasker_id] {
        live::publish(state, &live::user_topic(user_id), &event).await;
    }
}

pub async fn publish_task(state: &Services, task_id: Uuid) {
    if let Ok(Some(task)) = tasks::task(&state.db, task_id).await {
        live::task_updated(state, task.id, task.status, task.offer_count).await;
    }
}

/// Releases the task's escrow (by the poster, an operator's decision, or
/// auto-release when both are `None`), then pays the tasker.
pub async fn release(
    state: &Services,
    task: &tasks::TaskRow,
    poster_id: Option<Uuid>,
    decision: Option<&store::release::Decision<'_>>,
) -> DomainResult<Option<PaymentRow>> {
    let by = match (poster_id, decision) {
        (Some(_), _) => ReleasedBy::Poster,
        (None, Some(_)) => ReleasedBy::Operator,
        (None, None) => ReleasedBy::AutoRelease,
    };
    let now = Timestamp::now();
    let told = |payment: &PaymentRow, paid_cents| notices::released(by, payment, &task.title, paid_cents, now);
    let released = store::release::release(&state.db, task.id, poster_id, decision, &told, now).await?;
    let Some((payment, notifications)) = released else {
        return Ok(None);
    };
    after_commit(state, &payment, &notifications).await;
    calls::run_owed(state, payment.id).await;
    super::increases::after_increases_closed(state, task).await;
    Ok(Some(payment))
}

/// Answers a cancellation request (accept or decline), refunding on cancellation.
pub async fn answer_cancellation(
    state: &Services,
    task: &tasks::TaskRow,
    request: &CancellationRow,
    answer: Answer,
) -> DomainResult<bool> {
    let Some(tasker_id) = task.assigned_tasker_id else { return Ok(false) };
    let requester = Party::of(request.requested_by, task.poster_id, task.assigned_tasker_id);
    let reason = request.reason_code.as_deref().unwrap_or("other");
    let attributed_to = match answer {
        Answer::Lapse => model::marketplace::cancellations::lapse_attribution(requester, reason),
        Answer::Accept | Answer::Decline => model::marketplace::cancellations::attribution(requester, reason),
    };
    let now = Timestamp::now();
    let told = |refunded: Option<(i64, &str)>| match answer {
        Answer::Decline => vec![notices::cancellation_declined(request.requested_by, task.id, &task.title, now)],
        Answer::Accept | Answer::Lapse => {
            notices::task_cancelled([task.poster_id, tasker_id], task.id, &task.title, refunded, now)
        }
    };
    let outcome =
        store::cancellations::answer_cancellation(&state.db, request, answer, attributed_to, &told, now).await?;
    let Some((refunded, notifications)) = outcome else { return Ok(false) };
    live::notifications_created(state, &notifications).await;
    if let Some(payment) = refunded {
        publish_payment(state, payment.id).await;
        calls::run_owed(state, payment.id).await;
    }
    if answer != Answer::Decline {
        super::increases::after_increases_closed(state, task).await;
    }
    publish_task(state, task.id).await;
    Ok(true)
}

/// What became of a request nobody answered within 48 hours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lapsed {
    /// Cancelled and refunded, as the requester asked.
    Cancelled,
    /// The poster asked after the tasker asked to be paid: an operator decides.
    Escalated,
    /// The request or the task moved on meanwhile.
    Unchanged,
}

/// The sweep's answer to silence. Silence never refunds a poster once the
/// tasker has asked to be paid (that would let a poster take the work and its
/// price); such a request becomes a dispute. Otherwise it is accepted.
pub async fn lapse_cancellation(
    state: &Services,
    task: &tasks::TaskRow,
    request: &CancellationRow,
) -> DomainResult<Lapsed> {
    let poster_asked = request.requested_by == task.poster_id;
    let disputed = task.open_dispute_id.is_some();
    if poster_asked && process::allows(Event::CancellationEscalated, task.status, disputed).is_some() {
        let escalated = super::disputes::escalate_cancellation(state, task, request).await?;
        return Ok(if escalated { Lapsed::Escalated } else { Lapsed::Unchanged });
    }
    let cancelled = answer_cancellation(state, task, request, Answer::Lapse).await?;
    Ok(if cancelled { Lapsed::Cancelled } else { Lapsed::Unchanged })
}
