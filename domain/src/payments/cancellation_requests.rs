//! After assignment, cancelling by agreement: either party asks with a reason, and the other
//! accepts (the task is cancelled and the escrow refunded, `escrow::answer_cancellation`) or
//! declines within 48 hours. What the parties are told is in `notices`.

use uuid::Uuid;

use model::{
    payments::{
        process::{self, Event},
        rules::{self, Party},
    },
    refusal::Invalid,
};
use store::{
    cancellations::{self, Answer, CancellationError, CancellationRow},
    db::Timestamp,
    tasks::TaskRow,
};

use crate::{
    live, marketplace, notices,
    refusal::{DomainError, DomainResult},
    services::Services,
};

pub const MAX_REASON_CHARS: usize = 1000;

/// `requester_id`, a party of the assigned task, asks to cancel with `reason` (and a reason from
/// the list, `other` when none, which decides whom the cancellation is attributed to); a poster
/// asks once per task.
pub async fn request(
    state: &Services,
    task: &TaskRow,
    requester_id: Uuid,
    reason: &str,
    reason_code: Option<&str>,
) -> DomainResult<CancellationRow> {
    let party = Party::of(requester_id, task.poster_id, task.assigned_tasker_id);
    process::permit(Event::RequestCancellation, party, task.status, task.open_dispute_id)?;
    let reason = reason.trim();
    if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
        return Err(Invalid::field("reason", "Please give a reason for cancelling").into());
    }
    let reason_code = model::marketplace::cancellations::reason(reason_code)?;
    rules::poster_asks_once(party, cancellations::poster_asked_to_cancel(&state.db, task.id).await?)?;
    let other = if party == Party::Poster { task.assigned_tasker_id.unwrap_or_default() } else { task.poster_id };
    let notification = notices::cancellation_requested(other, party, task.id, &task.title, reason, Timestamp::now());
    let row = cancellations::request_cancellation(
        &state.db,
        task.id,
        requester_id,
        reason,
        reason_code,
        &notification,
        Timestamp::now(),
    )
    .await
    .map_err(|error| match error {
        CancellationError::WrongState => rules::MOVED_ON.into(),
        CancellationError::AlreadyRequested => {
            DomainError::Conflict("A cancellation request is already waiting for an answer".into())
        }
        CancellationError::Database(error) => error.into(),
    })?;
    live::notifications_created(state, &[notification]).await;
    Ok(row)
}

/// The other party of the task answers its pending cancellation request; answers the task as it
/// is afterwards.
pub async fn answer(state: &Services, caller_id: Uuid, task_id: Uuid, answer: Answer) -> DomainResult<TaskRow> {
    let task = marketplace::tasks::task_or_not_found(state, task_id).await?;
    let party = Party::of(caller_id, task.poster_id, task.assigned_tasker_id);
    let event = match answer {
        Answer::Accept | Answer::Lapse => Event::AcceptCancellation,
        Answer::Decline => Event::DeclineCancellation,
    };
    let row = event.transition();
    if party == Party::Other {
        return Err(DomainError::Forbidden(row.not_yours.into()));
    }
    let request = cancellations::pending_cancellation(&state.db, task_id).await?;
    let request = request.ok_or_else(|| DomainError::Conflict(row.not_now.into()))?;
    rules::may_answer_cancellation(party, Party::of(request.requested_by, task.poster_id, task.assigned_tasker_id))?;
    process::permit(event, party, task.status, task.open_dispute_id)?;
    if !super::escrow::answer_cancellation(state, &task, &request, answer).await? {
        return Err(rules::MOVED_ON.into());
    }
    marketplace::tasks::task_or_not_found(state, task_id).await
}
