//! Disputes as the task's parties see them: either party opens one, both
//! parties (and operators) read the task's latest.

use axum::{Router, extract::State, http::StatusCode, routing::get};
use serde::Deserialize;

use domain::{payments::disputes, wire::assigned_tasks::Dispute};
use model::payments::rules::Party;

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, AuthUser, Operator, TaskFromPath},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/tasks/{id}/dispute", get(task_dispute).post(open_dispute))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct DisputeInput {
    /// `not_completed` | `poor_quality` | `no_show` | `other`.
    pub reason: String,
    pub message: String,
}

/// The poster or the assigned tasker disputes an assigned task: auto-release
/// and the cancellation lapse stop until an operator decides. Anyone else 403;
/// not assigned or already disputed 409; no known reason or no message 422.
#[utoipa::path(post, path = "/api/tasks/{id}/dispute", tag = "payments", request_body = DisputeInput,
    params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 201, body = Dispute), (status = 400), (status = 401), (status = 403), (status = 404),
        (status = 409), (status = 422)))]
pub async fn open_dispute(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
    ApiJson(input): ApiJson<DisputeInput>,
) -> ApiResult<(StatusCode, ApiJson<Dispute>)> {
    let dispute = disputes::open(&state, &task, caller.id, &input.reason, &input.message).await?;
    Ok((StatusCode::CREATED, ApiJson(Dispute::from(&dispute))))
}

/// The task's latest dispute, open or resolved, or null (its parties and operators).
#[utoipa::path(get, path = "/api/tasks/{id}/dispute", tag = "payments",
    params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 200, body = Option<Dispute>), (status = 400), (status = 401), (status = 403), (status = 404)))]
pub async fn task_dispute(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
) -> ApiResult<ApiJson<Option<Dispute>>> {
    if Party::of(caller.id, task.poster_id, task.assigned_tasker_id) == Party::Other
        && !Operator::is(&state, caller.id).await?
    {
        return Err(ApiError::Forbidden("Only the poster and the assigned tasker can see this".into()));
    }
    Ok(ApiJson(store::disputes::latest_for_task(&state.db, task.id).await?.as_ref().map(Dispute::from)))
}
