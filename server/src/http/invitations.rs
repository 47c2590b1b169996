//! "Invite to Task": a poster invites a tasker to make an offer on one of
//! their open tasks. The invitation is a notification with the task's link,
//! live on the tasker's `user:{id}` topic.

use axum::{Router, extract::State, http::StatusCode, routing::post};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    accounts::names,
    db::Timestamp,
    error::{ApiError, ApiResult},
    http::extract::{ApiJson, ApiPath, VerifiedUser, task_or_404},
    live, notices,
    rate_limit::INVITATIONS_PER_POSTER,
    state::AppState,
    states::TaskStatus,
    store::{invitations, profiles},
};

pub fn router() -> Router<AppState> {
    Router::new().route("/tasks/{id}/invitations", post(invite_tasker))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct InvitationInput {
    pub tasker_id: Option<Uuid>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Invitation {
    pub task_id: Uuid,
    pub tasker_id: Uuid,
    pub created_at: Timestamp,
}

/// Invites a tasker to the caller's task: only its poster (403), only while open (409), only a tasker other
/// than oneself (422), once per tasker and task (409); at most 30 invitations an hour per poster (429).
#[utoipa::path(post, path = "/api/tasks/{id}/invitations", tag = "marketplace", request_body = InvitationInput,
    security(("bearer" = [])), params(("id" = Uuid, Path, description = "The task's id")),
    responses((status = 201, body = Invitation), (status = 401), (status = 403), (status = 404), (status = 409),
              (status = 422), (status = 429)))]
pub async fn invite_tasker(
    State(state): State<AppState>,
    VerifiedUser(caller): VerifiedUser,
    ApiPath(task_id): ApiPath<Uuid>,
    ApiJson(input): ApiJson<InvitationInput>,
) -> ApiResult<(StatusCode, ApiJson<Invitation>)> {
    let tasker_id = input.tasker_id.ok_or_else(|| ApiError::field("tasker_id", "Please choose a tasker to invite"))?;
    let task = task_or_404(&state, task_id).await?;
    if task.poster_id != caller.id {
        return Err(ApiError::Forbidden("Only the task's poster can invite taskers to it".into()));
    }
    if task.status != TaskStatus::Open {
        return Err(ApiError::Conflict("Only open tasks can be shared with taskers".into()));
    }
    if tasker_id == caller.id {
        return Err(ApiError::field("tasker_id", "You cannot invite yourself to your own task"));
    }
    let tasker = profiles::profile(&state.db, tasker_id).await?.ok_or_else(|| ApiError::not_found("Tasker"))?;
    if !tasker.is_tasker {
        return Err(ApiError::field("tasker_id", "Only taskers can be invited to make an offer"));
    }
    state.limiter.check(&format!("invitations:{}", caller.id), INVITATIONS_PER_POSTER).await?;
    let poster = names::public_name(&task.poster_first_name, &task.poster_last_name);
    let now = Timestamp::now();
    let notification = notices::task_invitation(tasker_id, &poster, task_id, &task.title, now);
    if !invitations::insert_invitation(&state.db, task_id, caller.id, &notification).await? {
        let name = names::public_name(&tasker.first_name, &tasker.last_name);
        return Err(ApiError::Conflict(format!("You have already invited {name} to this task")));
    }
    live::notifications_created(&state, &[notification]).await;
    Ok((StatusCode::CREATED, ApiJson(Invitation { task_id, tasker_id, created_at: now })))
}
