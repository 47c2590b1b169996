//! What a tasker does with an offer: make one on an open task, change it while pending,
//! withdraw it. Each loads what it needs, checks the rules, makes the change in one
//! transaction with its notification, then publishes it (the wording is in `notices`).

use serde_json::Value;
use uuid::Uuid;

use model::marketplace::rules;
use store::{
    db::Timestamp,
    offers::{self, CreateOfferError, NewOffer, OfferRow},
};

use crate::{
    live::{self, OfferChange},
    marketplace::tasks::task_or_not_found,
    moderation::guard,
    notices,
    rate_limit::Limit,
    refusal::{DomainError, DomainResult},
    services::Services,
};

/// Offers made plus offers withdrawn, per tasker.
const OFFER_CHURN: Limit = Limit::per_minute(12);

/// The amount and message as sent; either may be missing or malformed (an update keeps what is missing).
pub struct OfferInput<'a> {
    pub amount_cents: Option<&'a Value>,
    pub message: Option<&'a str>,
}

/// Makes `tasker_id`'s offer on the task: not on one's own task, only while open, one pending
/// offer per tasker, at most five per tasker per task (withdrawn ones included); offer churn is
/// rate-limited.
pub async fn make(state: &Services, tasker_id: Uuid, task_id: Uuid, input: OfferInput<'_>) -> DomainResult<OfferRow> {
    count_offer_churn(state, tasker_id).await?;
    let task = task_or_not_found(state, task_id).await?;
    if task.poster_id == tasker_id {
        return Err(DomainError::Forbidden("You cannot make an offer on your own task".into()));
    }
    let (amount_cents, message) = rules::validate_offer(input.amount_cents, input.message)?;
    guard::keep_on_platform(&[("message", &message)])?;
    let now = Timestamp::now();
    let new_offer = NewOffer {
        task_id,
        tasker_id,
        amount_cents,
        message: &message,
        notification: notices::new_offer(task.poster_id, task_id, &task.title, now),
        created_at: now,
    };
    let created =
        offers::create_offer(&state.db, &new_offer, rules::MAX_OFFERS_PER_TASKER_PER_TASK).await.map_err(|error| {
            match error {
                CreateOfferError::TaskNotOpen => DomainError::Conflict("This task is no longer open for offers".into()),
                CreateOfferError::AlreadyOffered => {
                    DomainError::Conflict("You already have a pending offer on this task".into())
                }
                CreateOfferError::TooManyOffers => DomainError::Conflict(format!(
                    "You have already made {} offers on this task, the most allowed",
                    rules::MAX_OFFERS_PER_TASKER_PER_TASK
                )),
                CreateOfferError::Database(error) => error.into(),
            }
        })?;
    let row = offers::offer(&state.db, created.offer_id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("offer vanished after insert"))?;
    live::offer_changed(state, OfferChange::Created, &row, task.poster_id, created.offer_count).await;
    live::task_updated(state, task_id, task.status, created.offer_count).await;
    live::notifications_created(state, std::slice::from_ref(&created.notification)).await;
    Ok(row)
}

/// Changes the amount or message of a pending offer (its tasker only); what is missing stays.
pub async fn update(state: &Services, tasker_id: Uuid, id: Uuid, input: OfferInput<'_>) -> DomainResult<OfferRow> {
    let current = taskers_offer(state, tasker_id, id).await?;
    let amount = input.amount_cents.cloned().unwrap_or(current.amount_cents.into());
    let message = input.message.unwrap_or(&current.message);
    let (amount_cents, message) = rules::validate_offer(Some(&amount), Some(message))?;
    guard::keep_on_platform(&[("message", &message)])?;
    if !offers::update_pending_offer(&state.db, id, tasker_id, amount_cents, &message, Timestamp::now()).await? {
        return Err(not_pending());
    }
    let row = offers::offer(&state.db, id).await?.ok_or_else(|| DomainError::not_found("Offer"))?;
    let task = task_or_not_found(state, row.task_id).await?;
    live::offer_changed(state, OfferChange::Updated, &row, task.poster_id, task.offer_count).await;
    Ok(row)
}

/// Withdraws a pending offer (its tasker only); offer churn is rate-limited.
pub async fn withdraw(state: &Services, tasker_id: Uuid, id: Uuid) -> DomainResult<OfferRow> {
    count_offer_churn(state, tasker_id).await?;
    taskers_offer(state, tasker_id, id).await?;
    let offer_count =
        offers::withdraw_offer(&state.db, id, tasker_id, Timestamp::now()).await?.ok_or_else(not_pending)?;
    let row = offers::offer(&state.db, id).await?.ok_or_else(|| DomainError::not_found("Offer"))?;
    let task = task_or_not_found(state, row.task_id).await?;
    live::offer_changed(state, OfferChange::Withdrawn, &row, task.poster_id, offer_count).await;
    live::task_updated(state, task.id, task.status, offer_count).await;
    Ok(row)
}

/// Making and withdrawing offers notifies posters and updates live pages: one budget per tasker.
async fn count_offer_churn(state: &Services, tasker_id: Uuid) -> DomainResult<()> {
    Ok(state.limiter.check(&format!("offer-churn:{tasker_id}"), OFFER_CHURN).await?)
}

/// The offer, when `tasker_id` made it: unknown is not found, someone else's forbidden.
async fn taskers_offer(state: &Services, tasker_id: Uuid, id: Uuid) -> DomainResult<OfferRow> {
    let row = offers::offer(&state.db, id).await?.ok_or_else(|| DomainError::not_found("Offer"))?;
    if row.tasker_id != tasker_id {
        return Err(DomainError::Forbidden("Only the tasker who made this offer can change it".into()));
    }
    Ok(row)
}

fn not_pending() -> DomainError {
    DomainError::Conflict("This offer can no longer be changed".into())
}
