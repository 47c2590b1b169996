//! Price increases (docs/architecture.md, "The lifecycles"): the assigned
//! tasker asks for more while the task is assigned, the poster approves and
//! pays the difference through a checkout of its own (a payment row whose
//! parent is the task's payment), and the paid difference joins the escrow
//! with its own ledger rows and fee. A pending increase lapses after 72 h; a
//! release, cancellation or dispute closes it, and refunds a checkout of it
//! paid after that.

use std::{collections::BTreeMap, time::Duration};

use uuid::Uuid;

use model::{
    payments::{
        fees,
        process::{self, Event},
        rules::{Denial, Party},
    },
    refusal::Invalid,
    states::{PaymentPurpose, PaymentStatus, PriceIncreaseStatus},
};
use store::{
    db::{Timestamp, new_id},
    escrow::NewPayment,
    payments::{self, PaymentRow},
    price_increases::{IncreaseConfirmation, IncreaseError, NewIncrease, PriceIncreaseRow},
    tasks::TaskRow,
};

use crate::{
    live, notices,
    payments::{
        CheckoutRequest, CheckoutStatus, SESSION_ID_PLACEHOLDER, calls,
        escrow::{self, CheckoutStarted},
    },
    refusal::{DomainError, DomainResult},
    services::Services,
    wire::{assigned_tasks::PriceIncrease, events::LiveEvent},
};

/// How long the poster has to answer an increase.
pub const ANSWER_WINDOW: Duration = Duration::from_secs(72 * 3600);
/// The most a task's increases may add up to: A$2,500, or the original amount if that is less.
pub const MAX_TOTAL_CENTS: i64 = 250_000;
pub const MAX_REASON_CHARS: usize = 1000;
/// The smallest increase: A$1.
const MIN_INCREASE_CENTS: i64 = 100;

/// What the task's increases may add up to, given the amount that bought it.
pub fn cap_cents(original_cents: i64) -> i64 {
    original_cents.min(MAX_TOTAL_CENTS)
}

/// Only the poster answers (403), only a pending increase (409).
pub fn may_answer(party: Party, increase_status: PriceIncreaseStatus) -> Result<(), Denial> {
    if party != Party::Poster {
        return Err(Denial::Forbidden("Only the task's poster can answer a price increase"));
    }
    if increase_status != PriceIncreaseStatus::Pending {
        return Err(Denial::Conflict("This price increase is no longer waiting for an answer"));
    }
    Ok(())
}

/// `tasker_id` asks for `amount_cents` more: the assigned tasker only (403), while the task is
/// assigned and not disputed (409); at least A$1 and a reason (422), within the cap (422).
pub async fn ask(
    state: &Services,
    task: &TaskRow,
    tasker_id: Uuid,
    amount_cents: Option<i64>,
    reason: &str,
) -> DomainResult<PriceIncreaseRow> {
    let party = Party::of(tasker_id, task.poster_id, task.assigned_tasker_id);
    process::permit(Event::AskIncrease, party, task.status, task.open_dispute_id)?;
    let amount_cents = amount_cents
        .filter(|cents| (MIN_INCREASE_CENTS..=MAX_TOTAL_CENTS).contains(cents))
        .ok_or_else(|| Invalid::field("amount_cents", "Please enter a valid amount of at least $1.00"))?;
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
        return Err(Invalid::field("reason", "Please say why the price should increase").into());
    }
    let parent = payments::kept_payment_for_task(&state.db, task.id).await?;
    let parent = parent.ok_or_else(|| DomainError::Conflict("The task has no payment held".into()))?;
    let now = Timestamp::now();
    let notification =
        notices::increase_requested(task.poster_id, task.id, &task.title, (amount_cents, &task.currency), reason, now);
    let increase = NewIncrease {
        id: new_id(),
        task_id: task.id,
        tasker_id,
        amount_cents,
        reason,
        expires_at: now.plus(ANSWER_WINDOW),
        cap_cents: cap_cents(parent.amount_cents),
    };
    let row =
        store::price_increases::create(&state.db, &increase, &notification, now).await.map_err(
            |error| match error {
                IncreaseError::WrongState => {
                    DomainError::Conflict("The task changed meanwhile; reload it and try again".into())
                }
                IncreaseError::AlreadyPending => {
                    DomainError::Conflict("A price increase is already waiting for the poster's answer".into())
                }
                IncreaseError::OverCap => Invalid::field(
                    "amount_cents",
                    &format!(
                        "Price increases can add up to at most {} on this task",
                        fees::display_amount(increase.cap_cents, &task.currency)
                    ),
                )
                .into(),
                IncreaseError::Database(error) => error.into(),
            },
        )?;
    live::notifications_created(state, &[notification]).await;
    publish_event(state, task, LiveEvent::PriceIncreaseCreated(PriceIncrease::from(&row))).await;
    Ok(row)
}

/// The increase and its task, when `caller_id` may answer it: strangers do not learn that it
/// exists (not found); only the poster (403), only a pending one (409).
async fn answerable(state: &Services, caller_id: Uuid, id: Uuid) -> DomainResult<(PriceIncreaseRow, TaskRow)> {
    let increase = store::price_increases::increase(&state.db, id)
        .await?
        .ok_or_else(|| DomainError::not_found("Price increase"))?;
    let task = crate::marketplace::tasks::task_or_not_found(state, increase.task_id).await?;
    let party = Party::of(caller_id, task.poster_id, task.assigned_tasker_id);
    if party == Party::Other {
        return Err(DomainError::not_found("Price increase"));
    }
    may_answer(party, increase.status)?;
    Ok((increase, task))
}

/// `poster_id` approves the increase: a checkout of the difference, exactly as Accept & Pay.
pub async fn approve(state: &Services, poster_id: Uuid, id: Uuid) -> DomainResult<CheckoutStarted> {
    let (increase, task) = answerable(state, poster_id, id).await?;
    let parent = payments::kept_payment_for_task(&state.db, task.id).await?;
    let parent = parent
        .filter(|parent| parent.status == PaymentStatus::Held)
        .ok_or_else(|| DomainError::Conflict("The task's payment is no longer held".into()))?;
    let payment_id = new_id();
    let now = Timestamp::now();
    let amount_cents = increase.amount_cents;
    let fee_cents = process::charge(PaymentPurpose::Increase).fee_cents(amount_cents);
    let request = CheckoutRequest {
        payment_id,
        description: format!("Price increase: {}", task.title),
        amount_cents,
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
            ("price_increase_id".to_owned(), increase.id.to_string()),
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
        amount_cents,
        fee_cents,
        currency: &task.currency,
        expires_at: now.plus(escrow::CHECKOUT_TTL),
    };
    if !store::price_increases::approve(&state.db, increase.id, &payment, parent.id, now).await? {
        if let Err(error) = provider.expire_checkout(&session.id).await {
            tracing::warn!(error = %error, "could not expire an unused checkout session");
        }
        return Err(DomainError::Conflict("This price increase can no longer be approved; reload the task".into()));
    }
    publish_by_id(state, &task, increase.id).await;
    Ok(CheckoutStarted { session_id: session.id, url: session.url })
}

/// `poster_id` declines the increase, with an optional reason (at most 1,000 characters, 422).
pub async fn decline(
    state: &Services,
    poster_id: Uuid,
    id: Uuid,
    reason: Option<&str>,
) -> DomainResult<PriceIncreaseRow> {
    let reason = reason.map(str::trim).filter(|reason| !reason.is_empty());
    if reason.is_some_and(|reason| reason.chars().count() > MAX_REASON_CHARS) {
        return Err(Invalid::field("reason", "Please keep the reason under 1,000 characters").into());
    }
    let (increase, task) = answerable(state, poster_id, id).await?;
    let amount = (increase.amount_cents, task.currency.as_str());
    let notification =
        notices::increase_declined(increase.tasker_id, task.id, &task.title, amount, reason, Timestamp::now());
    let row = store::price_increases::decline(&state.db, &increase, reason, &notification, Timestamp::now()).await?;
    let row =
        row.ok_or_else(|| DomainError::Conflict("This price increase is no longer waiting for an answer".into()))?;
    live::notifications_created(state, &[notification]).await;
    publish(state, &task, &row).await;
    Ok(row)
}

/// Records what the provider says of an increase's checkout (from
/// `escrow::record`, so verify, the webhook and the sweep all come here).
pub async fn record(state: &Services, payment: &PaymentRow, status: CheckoutStatus) -> DomainResult<()> {
    let Some(task) = store::tasks::task(&state.db, payment.task_id).await? else { return Ok(()) };
    // Read now: a checkout that ends unpaid detaches its increase from the payment.
    let increase = store::price_increases::by_payment(&state.db, payment.id).await?;
    let now = Timestamp::now();
    let title = &task.title;
    let changed = match status {
        CheckoutStatus::Open => false,
        CheckoutStatus::Processing { payment_intent } => {
            let notification = notices::increase_processing(payment, title, now);
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
            if moved {
                live::notifications_created(state, &[notification]).await;
            }
            moved
        }
        CheckoutStatus::Paid { charge_ref, payment_intent } => {
            let paid = notices::increase_paid(payment, title, now);
            let refunded = [notices::increase_refunded(payment, title, now)];
            let outcome = store::price_increases::confirm_paid(
                &state.db,
                payment,
                charge_ref.as_deref(),
                payment_intent.as_deref(),
                &paid,
                &refunded,
                now,
            )
            .await?;
            match outcome {
                IncreaseConfirmation::Paid { notifications } => {
                    live::notifications_created(state, &notifications).await;
                    true
                }
                IncreaseConfirmation::Refunded { notifications } => {
                    live::notifications_created(state, &notifications).await;
                    calls::run_owed(state, payment.id).await;
                    true
                }
                IncreaseConfirmation::Unchanged => false,
            }
        }
        CheckoutStatus::Failed => {
            let notification = notices::increase_failed(payment, title, now);
            let ended =
                store::price_increases::end_unpaid(&state.db, payment, PaymentStatus::Failed, Some(&notification), now)
                    .await?;
            if ended {
                live::notifications_created(state, &[notification]).await;
            }
            ended
        }
        CheckoutStatus::Expired => {
            store::price_increases::end_unpaid(&state.db, payment, PaymentStatus::Expired, None, now).await?
        }
    };
    if changed {
        escrow::publish_payment(state, payment.id).await;
        if let Some(increase) = increase {
            publish_by_id(state, &task, increase.id).await;
        }
        escrow::publish_task(state, task.id).await;
    }
    Ok(())
}

/// After a release, cancellation or dispute closed the task's open increase:
/// open checkouts of increases can no longer join the escrow, so they are
/// expired at the provider (one paid meanwhile is refunded when it is
/// confirmed); the transfers and refunds owed for paid increases are made;
/// both parties see the closed increase.
pub async fn after_increases_closed(state: &Services, task: &TaskRow) {
    let Ok(all) = payments::payments_for_task(&state.db, task.id).await else { return };
    for payment in all.iter().filter(|payment| payment.purpose != PaymentPurpose::Task) {
        if payment.status == PaymentStatus::Pending {
            if let Err(error) = escrow::check(state, payment.clone()).await {
                tracing::warn!(?error, payment_id = %payment.id, "could not close an increase's checkout; the sweep will");
            }
        } else {
            calls::run_owed(state, payment.id).await;
            escrow::publish_payment(state, payment.id).await;
        }
    }
    if let Ok(increases) = store::price_increases::for_task(&state.db, task.id).await {
        for increase in increases.iter().filter(|increase| increase.status == PriceIncreaseStatus::Closed) {
            publish(state, task, increase).await;
        }
    }
}

/// The sweep: pending increases unanswered for 72 hours lapse. How many did.
pub async fn lapse_due(state: &Services, now: Timestamp, limit: i64) -> anyhow::Result<usize> {
    let mut lapsed = 0;
    for increase in store::price_increases::lapsed(&state.db, now, limit).await? {
        let Some(task) = store::tasks::task(&state.db, increase.task_id).await? else { continue };
        let amount = (increase.amount_cents, task.currency.as_str());
        let notification = notices::increase_lapsed(increase.tasker_id, task.id, &task.title, amount, now);
        if let Some(row) = store::price_increases::lapse(&state.db, &increase, &notification, now).await? {
            lapsed += 1;
            live::notifications_created(state, &[notification]).await;
            publish(state, &task, &row).await;
        }
    }
    Ok(lapsed)
}

async fn publish_by_id(state: &Services, task: &TaskRow, increase_id: Uuid) {
    if let Ok(Some(increase)) = store::price_increases::increase(&state.db, increase_id).await {
        publish(state, task, &increase).await;
    }
}

/// `price_increase.updated` to both parties: the increase changed after it was asked for.
pub async fn publish(state: &Services, task: &TaskRow, increase: &PriceIncreaseRow) {
    publish_event(state, task, LiveEvent::PriceIncreaseUpdated(PriceIncrease::from(increase))).await;
}

/// `event` (`price_increase.created` once, when asked for; `.updated` after) to both parties.
async fn publish_event(state: &Services, task: &TaskRow, event: LiveEvent) {
    for user_id in [Some(task.poster_id), task.assigned_tasker_id].into_iter().flatten() {
        live::publish(state, &live::user_topic(user_id), &event).await;
    }
}

#[cfg(test)]
mod tests {
    use model::states::TaskStatus;

    use super::*;

    #[test]
    fn the_cap_is_the_original_amount_or_2500_dollars_whichever_is_smaller() {
        assert_eq!(cap_cents(10_000), 10_000);
        assert_eq!(cap_cents(250_000), 250_000);
        assert_eq!(cap_cents(900_000), 250_000);
    }

    #[test]
    fn only_the_assigned_tasker_asks_and_only_while_assigned_without_a_dispute() {
        let ask = |party, status, dispute| process::permit(Event::AskIncrease, party, status, dispute).map(|_| ());
        assert_eq!(ask(Party::AssignedTasker, TaskStatus::Assigned, None), Ok(()));
        assert!(matches!(ask(Party::Poster, TaskStatus::Assigned, None), Err(Denial::Forbidden(_))));
        assert!(matches!(ask(Party::Other, TaskStatus::Assigned, None), Err(Denial::Forbidden(_))));
        let disputed = Some(Uuid::now_v7());
        assert!(matches!(ask(Party::AssignedTasker, TaskStatus::Assigned, disputed), Err(Denial::Conflict(_))));
        for status in [TaskStatus::CompletionRequested, TaskStatus::Completed, TaskStatus::Cancelled, TaskStatus::Open]
        {
            assert!(matches!(ask(Party::AssignedTasker, status, None), Err(Denial::Conflict(_))), "{status}");
        }
    }

    #[test]
    fn only_the_poster_answers_a_pending_increase() {
        assert_eq!(may_answer(Party::Poster, PriceIncreaseStatus::Pending), Ok(()));
        assert!(matches!(may_answer(Party::AssignedTasker, PriceIncreaseStatus::Pending), Err(Denial::Forbidden(_))));
        for status in [
            PriceIncreaseStatus::Approved,
            PriceIncreaseStatus::Paid,
            PriceIncreaseStatus::Declined,
            PriceIncreaseStatus::Lapsed,
            PriceIncreaseStatus::Closed,
        ] {
            assert!(matches!(may_answer(Party::Poster, status), Err(Denial::Conflict(_))), "{status}");
        }
    }
}
