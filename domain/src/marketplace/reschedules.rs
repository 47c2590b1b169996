//! Rescheduling an assigned task: either party proposes a new due date (and
//! an optional time window), the other accepts or declines within 48 hours;
//! on acceptance the task's due date changes, live to both parties and to
//! everyone watching the task; on lapse nothing changes.

use std::time::Duration;

use time::Date;
use uuid::Uuid;

use model::{
    marketplace::rules::{format_date, parse_date},
    payments::rules::Party,
    refusal::{Denial, Invalid},
    states::{RescheduleStatus, TaskStatus},
};
use store::{
    db::{Timestamp, new_id},
    reschedules::{NewReschedule, RescheduleError, RescheduleRow},
    tasks::{self, TaskRow},
};

use crate::{
    live, notices,
    refusal::{DomainError, DomainResult},
    services::Services,
    wire::{assigned_tasks::Reschedule, events::LiveEvent},
};

pub const ANSWER_WINDOW: Duration = Duration::from_secs(48 * 3600);
pub const MAX_NOTE_CHARS: usize = 500;
pub const MAX_WINDOW_CHARS: usize = 40;

/// Either party proposes (403 for anyone else), only while assigned and not disputed (409).
pub fn may_propose(party: Party, task_status: TaskStatus, open_dispute: Option<Uuid>) -> Result<(), Denial> {
    if party == Party::Other {
        return Err(Denial::Forbidden("Only the poster and the assigned tasker can propose a new date"));
    }
    if task_status != TaskStatus::Assigned || open_dispute.is_some() {
        return Err(Denial::Conflict("A new date can only be proposed while the task is assigned"));
    }
    Ok(())
}

/// Only the other party answers (403), only a pending proposal (409).
pub fn may_answer(answerer: Party, proposer: Party, status: RescheduleStatus) -> Result<(), Denial> {
    if answerer == Party::Other || answerer == proposer {
        return Err(Denial::Forbidden("Only the other party can answer this proposal"));
    }
    if status != RescheduleStatus::Pending {
        return Err(Denial::Conflict("This proposal is no longer waiting for an answer"));
    }
    Ok(())
}

/// A proposed date: a valid `YYYY-MM-DD`, not before `today`. The date as stored.
pub fn valid_date(text: &str, today: Date) -> Result<String, Invalid> {
    match parse_date(text) {
        None => Err(Invalid::field("due_date", "Please enter a valid date")),
        Some(date) if date < today => Err(Invalid::field("due_date", "The due date cannot be in the past")),
        Some(date) => Ok(format_date(date)),
    }
}

fn other_party(task: &TaskRow, of: Uuid) -> Uuid {
    if of == task.poster_id { task.assigned_tasker_id.unwrap_or_default() } else { task.poster_id }
}

fn when(due_date: &str, window: Option<&str>) -> String {
    match window {
        Some(window) => format!("{due_date} ({window})"),
        None => due_date.to_owned(),
    }
}

/// A new date as sent: `YYYY-MM-DD`, with an optional time window and note.
pub struct Proposal<'a> {
    pub due_date: &'a str,
    pub window: Option<&'a str>,
    pub note: Option<&'a str>,
}

/// Trimmed; empty is none, over `max` characters refused with `message`.
fn optional_text<'a>(
    text: Option<&'a str>,
    max: usize,
    field: &str,
    message: &str,
) -> Result<Option<&'a str>, Invalid> {
    let text = text.map(str::trim).filter(|text| !text.is_empty());
    if text.is_some_and(|text| text.chars().count() > max) {
        return Err(Invalid::field(field, message));
    }
    Ok(text)
}

/// `proposed_by` proposes a new date: either party (403), while assigned and not disputed, with
/// no other proposal waiting (409); a valid date, not in the past, a short window and note (422).
pub async fn propose(
    state: &Services,
    task: &TaskRow,
    proposed_by: Uuid,
    proposal: Proposal<'_>,
) -> DomainResult<RescheduleRow> {
    may_propose(Party::of(proposed_by, task.poster_id, task.assigned_tasker_id), task.status, task.open_dispute_id)?;
    let due_date = &valid_date(proposal.due_date, time::OffsetDateTime::now_utc().date())?;
    let window = optional_text(proposal.window, MAX_WINDOW_CHARS, "window", "Please keep the time window short")?;
    let note = optional_text(proposal.note, MAX_NOTE_CHARS, "note", "Please keep the note under 500 characters")?;
    let now = Timestamp::now();
    let notification =
        notices::date_proposed(other_party(task, proposed_by), task.id, &task.title, &when(due_date, window), now);
    let proposal = NewReschedule {
        id: new_id(),
        task_id: task.id,
        proposed_by,
        due_date,
        time_window: window,
        note,
        expires_at: now.plus(ANSWER_WINDOW),
    };
    let row =
        store::reschedules::propose(&state.db, &proposal, &notification, now).await.map_err(|error| match error {
            RescheduleError::WrongState => {
                DomainError::Conflict("The task changed meanwhile; reload it and try again".into())
            }
            RescheduleError::AlreadyPending => {
                DomainError::Conflict("A new date is already waiting for an answer".into())
            }
            RescheduleError::Database(error) => error.into(),
        })?;
    live::notifications_created(state, &[notification]).await;
    publish(state, task, LiveEvent::RescheduleCreated(Reschedule::from(&row))).await;
    Ok(row)
}

/// `answerer_id` accepts or declines the proposal: strangers do not learn that it exists (not
/// found); only the other party (403), only a pending one (409).
pub async fn answer(
    state: &Services,
    answerer_id: Uuid,
    id: Uuid,
    new_status: RescheduleStatus,
) -> DomainResult<RescheduleRow> {
    let proposal =
        store::reschedules::reschedule(&state.db, id).await?.ok_or_else(|| DomainError::not_found("Proposal"))?;
    let task = super::tasks::task_or_not_found(state, proposal.task_id).await?;
    let answerer = Party::of(answerer_id, task.poster_id, task.assigned_tasker_id);
    if answerer == Party::Other {
        return Err(DomainError::not_found("Proposal"));
    }
    let proposer = Party::of(proposal.proposed_by, task.poster_id, task.assigned_tasker_id);
    may_answer(answerer, proposer, proposal.status)?;
    close(state, &task, &proposal, new_status, Timestamp::now()).await
}

/// `accepted` or `declined` by the other party, or `lapsed` by the sweep, as of `now`.
async fn close(
    state: &Services,
    task: &TaskRow,
    proposal: &RescheduleRow,
    new_status: RescheduleStatus,
    now: Timestamp,
) -> DomainResult<RescheduleRow> {
    let when = when(&proposal.due_date, proposal.time_window.as_deref());
    let notification = notices::date_answered(proposal.proposed_by, task.id, &task.title, new_status, &when, now);
    let row = store::reschedules::answer(&state.db, proposal, new_status, &notification, now).await?;
    let row = row.ok_or_else(|| DomainError::Conflict("This proposal is no longer waiting for an answer".into()))?;
    live::notifications_created(state, &[notification]).await;
    publish(state, task, LiveEvent::RescheduleUpdated(Reschedule::from(&row))).await;
    if new_status == RescheduleStatus::Accepted
        && let Some(task) = tasks::task(&state.db, task.id).await?
    {
        live::task_edited(state, &task).await;
    }
    Ok(row)
}

/// The sweep: proposals unanswered for 48 hours lapse. How many did.
pub async fn lapse_due(state: &Services, now: Timestamp, limit: i64) -> anyhow::Result<usize> {
    let mut lapsed = 0;
    for proposal in store::reschedules::lapsed(&state.db, now, limit).await? {
        let Some(task) = tasks::task(&state.db, proposal.task_id).await? else { continue };
        if close(state, &task, &proposal, RescheduleStatus::Lapsed, now).await.is_ok() {
            lapsed += 1;
        }
    }
    Ok(lapsed)
}

async fn publish(state: &Services, task: &TaskRow, event: LiveEvent) {
    for user_id in [Some(task.poster_id), task.assigned_tasker_id].into_iter().flatten() {
        live::publish(state, &live::user_topic(user_id), &event).await;
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    #[test]
    fn either_party_proposes_while_assigned() {
        assert!(may_propose(Party::Poster, TaskStatus::Assigned, None).is_ok());
        assert!(may_propose(Party::AssignedTasker, TaskStatus::Assigned, None).is_ok());
        assert!(matches!(may_propose(Party::Other, TaskStatus::Assigned, None), Err(Denial::Forbidden(_))));
        assert!(matches!(may_propose(Party::Poster, TaskStatus::CompletionRequested, None), Err(Denial::Conflict(_))));
        assert!(matches!(
            may_propose(Party::Poster, TaskStatus::Assigned, Some(Uuid::now_v7())),
            Err(Denial::Conflict(_))
        ));
    }

    #[test]
    fn only_the_other_party_answers_a_pending_proposal() {
        assert!(may_answer(Party::Poster, Party::AssignedTasker, RescheduleStatus::Pending).is_ok());
        assert!(may_answer(Party::AssignedTasker, Party::Poster, RescheduleStatus::Pending).is_ok());
        assert!(matches!(
            may_answer(Party::Poster, Party::Poster, RescheduleStatus::Pending),
            Err(Denial::Forbidden(_))
        ));
        assert!(matches!(
            may_answer(Party::Other, Party::Poster, RescheduleStatus::Pending),
            Err(Denial::Forbidden(_))
        ));
        assert!(matches!(
            may_answer(Party::Poster, Party::AssignedTasker, RescheduleStatus::Lapsed),
            Err(Denial::Conflict(_))
        ));
    }

    #[test]
    fn a_proposed_date_is_a_real_day_not_in_the_past() {
        let today = date!(2026 - 03 - 10);
        assert_eq!(valid_date("2026-03-10", today).unwrap(), "2026-03-10");
        assert_eq!(valid_date("2026-04-01T09:00:00Z", today).unwrap(), "2026-04-01");
        assert!(valid_date("2026-03-09", today).is_err());
        assert!(valid_date("next week", today).is_err());
        assert!(valid_date("2026-02-30", today).is_err());
    }
}
