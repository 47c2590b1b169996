//! "Invite to Task": a poster invites a tasker to make an offer on one of their open tasks.
//! The invitation is a notification with the task's link, live on the tasker's own topic.

use uuid::Uuid;

use model::{refusal::Invalid, states::TaskStatus};
use store::{db::Timestamp, invitations, profiles};

use crate::{
    accounts::names,
    live,
    marketplace::tasks::task_or_not_found,
    notices,
    rate_limit::INVITATIONS_PER_POSTER,
    refusal::{DomainError, DomainResult},
    services::Services,
};

/// An invitation as sent.
pub struct Invited {
    pub tasker_id: Uuid,
    pub created_at: Timestamp,
}

/// Invites `tasker_id` to `poster_id`'s task: only its poster, only while open, only a tasker
/// other than oneself, once per tasker and task; invitations are rate-limited per poster.
pub async fn invite(
    state: &Services,
    poster_id: Uuid,
    task_id: Uuid,
    tasker_id: Option<Uuid>,
) -> DomainResult<Invited> {
    let tasker_id = tasker_id.ok_or_else(|| Invalid::field("tasker_id", "Please choose a tasker to invite"))?;
    let task = task_or_not_found(state, task_id).await?;
    if task.poster_id != poster_id {
        return Err(DomainError::Forbidden("Only the task's poster can invite taskers to it".into()));
    }
    if task.status != TaskStatus::Open {
        return Err(DomainError::Conflict("Only open tasks can be shared with taskers".into()));
    }
    if tasker_id == poster_id {
        return Err(Invalid::field("tasker_id", "You cannot invite yourself to your own task").into());
    }
    let tasker = profiles::profile(&state.db, tasker_id).await?.ok_or_else(|| DomainError::not_found("Tasker"))?;
    if !tasker.is_tasker {
        return Err(Invalid::field("tasker_id", "Only taskers can be invited to make an offer").into());
    }
    state.limiter.check(&format!("invitations:{poster_id}"), INVITATIONS_PER_POSTER).await?;
    let poster = names::public_name(&task.poster_first_name, &task.poster_last_name);
    let now = Timestamp::now();
    let notification = notices::task_invitation(tasker_id, &poster, task_id, &task.title, now);
    if !invitations::insert_invitation(&state.db, task_id, poster_id, &notification).await? {
        let name = names::public_name(&tasker.first_name, &tasker.last_name);
        return Err(DomainError::Conflict(format!("You have already invited {name} to this task")));
    }
    live::notifications_created(state, &[notification]).await;
    Ok(Invited { tasker_id, created_at: now })
}
