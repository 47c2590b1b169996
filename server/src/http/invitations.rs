//! "Invite to Task": a poster invites a tasker to make an offer on one of
//! their open tasks. The invitation is a notification with the task's link,
//! live on the tasker's `user:{id}` topic.

use axum::{Router, extract::State, http::StatusCode, routing::post};
use serde::Deserialize;
use uuid::Uuid;

use domain::{marketplace, wire::marketplace::Invitation};

use crate::http::{
    error::ApiResult,
    extract::{ApiJson, ApiPath, VerifiedUser},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/tasks/{id}/invitations", post(invite_tasker))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct InvitationInput {
    pub tasker_id: Option<Uuid>,
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
    let invited = marketplace::invitations::invite(&state, caller.id, task_id, input.tasker_id).await?;
    let invitation = Invitation { task_id, tasker_id: invited.tasker_id, created_at: invited.created_at };
    Ok((StatusCode::CREATED, ApiJson(invitation)))
}
