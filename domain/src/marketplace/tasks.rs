//! What a poster does with a task: post it, edit it while open, cancel it while open. Each
//! checks the rules, makes the change in one transaction with its notifications, then
//! publishes it.

use std::{net::IpAddr, time::Duration};

use time::OffsetDateTime;
use uuid::Uuid;

use model::{
    marketplace::{
        cancellations,
        rules::{self, TaskInput},
    },
    payments::{
        process::{self, Event},
        rules::Party,
    },
};
use store::{
    db::Timestamp,
    tasks::{self, TaskRow},
};

use crate::{
    alerts, live,
    moderation::guard,
    notices,
    rate_limit::{Limit, client_key},
    refusal::{DomainError, DomainResult},
    services::Services,
};

/// The task named by a request or a row; unknown is not found.
pub async fn task_or_not_found(state: &Services, id: Uuid) -> DomainResult<TaskRow> {
    tasks::task(&state.db, id).await?.ok_or_else(|| DomainError::not_found("Task"))
}

/// The task, when `poster_id` posted it: unknown is not found, someone else's forbidden.
pub async fn posters_task(state: &Services, poster_id: Uuid, id: Uuid) -> DomainResult<TaskRow> {
    let row = task_or_not_found(state, id).await?;
    if row.poster_id != poster_id {
        return Err(DomainError::Forbidden("Only the poster can change this task".into()));
    }
    Ok(row)
}

fn today() -> time::Date {
    OffsetDateTime::now_utc().date()
}

fn not_open() -> DomainError {
    DomainError::Conflict("This task is no longer open".into())
}

/// Posts a task (status `open`) from `client`. Each post may notify every matching tasker, so
/// posts are limited per account and per client address.
pub async fn post(state: &Services, poster_id: Uuid, client: IpAddr, input: &TaskInput) -> DomainResult<TaskRow> {
    let draft = rules::validate_task(input, today())?;
    guard::keep_on_platform(&[("title", &draft.title), ("description", &draft.description)])?;
    let hour = Duration::from_secs(3600);
    let per_account = Limit::new(state.config.task_posts_per_hour, hour);
    state.limiter.check(&format!("task-posts:account:{poster_id}"), per_account).await?;
    let per_client = Limit::new(state.config.task_posts_per_client_per_hour, hour);
    state.limiter.check(&format!("task-posts:client:{}", client_key(client)), per_client).await?;
    let id = tasks::create_task(&state.db, poster_id, &draft, Timestamp::now()).await?;
    alerts::matching::wake(state);
    let row = tasks::task(&state.db, id).await?.ok_or_else(|| anyhow::anyhow!("task vanished after insert"))?;
    live::task_created(state, &row).await;
    Ok(row)
}

fn keep_place(patch: &TaskInput, current: &TaskRow) -> TaskInput {
    let place_changed = patch.location.is_some() || patch.lat.is_some() || patch.lon.is_some();
    let (lat, lon) = if place_changed {
        (patch.lat.clone(), patch.lon.clone())
    } else {
        (current.lat.map(Into::into), current.lon.map(Into::into))
    };
    TaskInput { lat, lon, ..TaskInput::default() }
}

/// Edits an open task (its poster only); absent fields keep their value.
pub async fn edit(state: &Services, poster_id: Uuid, id: Uuid, patch: TaskInput) -> DomainResult<TaskRow> {
    let current = posters_task(state, poster_id, id).await?;
    // Only the text being changed: an edit of the date must not trip over older wording.
    let changed_text = [("title", patch.title.as_deref()), ("description", patch.description.as_deref())];
    guard::keep_on_platform(&changed_text.map(|(field, text)| (field, text.unwrap_or_default())))?;
    let due_changed = patch.due_date.is_some();
    // Keep the stored coordinates unless the place changed (then re-resolve unless new ones came).
    let place = keep_place(&patch, &current);
    let merged = TaskInput {
        title: patch.title.or(Some(current.title.clone())),
        description: patch.description.or(Some(current.description.clone())),
        category_id: patch.category_id.or(Some(current.category_id.into())),
        location: patch.location.or(Some(current.location.clone())),
        budget_cents: patch.budget_cents.or(Some(current.budget_cents.into())),
        due_date: patch.due_date.or(Some(current.due_date.clone())),
        remote: patch.remote.or(Some(current.remote)),
        ..place
    };
    // An unchanged due date that has since passed does not block other edits.
    let earliest = match rules::parse_date(&current.due_date) {
        Some(current_due) if !due_changed => today().min(current_due),
        _ => today(),
    };
    let draft = rules::validate_task(&merged, earliest)?;
    if !tasks::update_open_task(&state.db, id, poster_id, &draft, Timestamp::now()).await? {
        return Err(not_open());
    }
    let row = task_or_not_found(state, id).await?;
    live::task_edited(state, &row).await;
    Ok(row)
}

/// Cancels an open task (its poster only), with a reason from the list (attributed to the
/// poster; `other` when none is given); pending offers become `not_selected` and their taskers
/// are told.
pub async fn cancel_open(
    state: &Services,
    poster_id: Uuid,
    id: Uuid,
    reason_code: Option<&str>,
) -> DomainResult<TaskRow> {
    let reason = cancellations::reason(reason_code)?;
    let current = task_or_not_found(state, id).await?;
    let party = Party::of(poster_id, current.poster_id, current.assigned_tasker_id);
    process::permit(Event::CancelOpen, party, current.status, current.open_dispute_id)?;
    let notice = notices::open_task_cancelled(id, &current.title);
    let cancelled = tasks::cancel_open_task(&state.db, id, poster_id, &notice, reason, Timestamp::now()).await?;
    let notifications = cancelled.ok_or_else(not_open)?;
    let row = task_or_not_found(state, id).await?;
    live::task_updated(state, id, row.status, row.offer_count).await;
    live::notifications_created(state, &notifications).await;
    Ok(row)
}
