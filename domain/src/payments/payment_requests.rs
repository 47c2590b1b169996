//! The assigned tasker marks the work done and asks to be paid: the task moves to
//! `completion_requested` and the poster is told (the auto-release clock starts, `sweep`).

use uuid::Uuid;

use model::payments::{
    process::{self, Event},
    rules::{self, Party},
};
use store::{db::Timestamp, release, tasks::TaskRow};

use crate::{live, marketplace, notices, payments::escrow, refusal::DomainResult, services::Services};

/// `tasker_id` asks to be paid for the task; answers the task as it is afterwards.
pub async fn request(state: &Services, task: &TaskRow, tasker_id: Uuid) -> DomainResult<TaskRow> {
    let party = Party::of(tasker_id, task.poster_id, task.assigned_tasker_id);
    process::permit(Event::RequestPayment, party, task.status, task.open_dispute_id)?;
    let now = Timestamp::now();
    let notification = notices::payment_requested(task.poster_id, task.id, &task.title, now);
    if !release::request_payment(&state.db, task.id, tasker_id, &notification, now).await? {
        return Err(rules::MOVED_ON.into());
    }
    live::notifications_created(state, &[notification]).await;
    escrow::publish_task(state, task.id).await;
    marketplace::tasks::task_or_not_found(state, task.id).await
}
