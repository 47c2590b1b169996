//! After assignment, cancelling: either party asks to cancel with a reason,
//! and the other accepts (the task is cancelled and the escrow refunded) or
//! declines within 48 hours.

use axum::{
    Router,
    extract::State,
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::{
    payments::cancellation_requests,
    wire::assigned_tasks::{Cancellation, TaskStatusView},
};
use model::payments::rules::Party;
use store::cancellations::{self, Answer};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiPath, AuthUser, TaskFromPath},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tasks/{id}/cancellation", get(cancellation).post(request_cancellation))
        .route("/tasks/{id}/cancellation/accept", post(accept_cancellation))
        .route("/tasks/{id}/cancellation/decline", post(decline_cancellation))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct CancellationInput {
    /// In the requester's words.
    pub reason: String,
    /// A reason from the fixed list (`marketplace::cancellations::REASONS`); `other` when left out.
    /// It decides whom the cancellation is attributed to.
    pub reason_code: Option<String>,
}

/// The pending cancellation request of a task, if any (its parties only).
#[utoipa::path(get, path = "/api/tasks/{id}/cancellation", tag = "payments", params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 200, body = Option<Cancellation>), (status = 401), (status = 403), (status = 404)))]
pub async fn cancellation(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
) -> ApiResult<ApiJson<Option<Cancellation>>> {
    if Party::of(caller.id, task.poster_id, task.assigned_tasker_id) == Party::Other {
        return Err(ApiError::Forbidden("Only the poster and the assigned tasker can see this".into()));
    }
    Ok(ApiJson(cancellations::pending_cancellation(&state.db, task.id).await?.as_ref().map(Cancellation::from)))
}

/// Either party of an assigned task asks to cancel, with a reason; the other has 48 h to answer.
/// A poster asks once per task (409 after that: a disagreement goes to a dispute).
#[utoipa::path(post, path = "/api/tasks/{id}/cancellation", tag = "payments", params(("id" = Uuid, Path, description = "The task")), request_body = CancellationInput, security(("bearer" = [])),
    responses((status = 201, body = Cancellation), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn request_cancellation(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
    ApiJson(input): ApiJson<CancellationInput>,
) -> ApiResult<(axum::http::StatusCode, ApiJson<Cancellation>)> {
    let row =
        cancellation_requests::request(&state, &task, caller.id, &input.reason, input.reason_code.as_deref()).await?;
    Ok((axum::http::StatusCode::CREATED, ApiJson(Cancellation::from(&row))))
}

async fn answer(state: AppState, caller: AuthUser, id: Uuid, answer: Answer) -> ApiResult<ApiJson<TaskStatusView>> {
    let task = cancellation_requests::answer(&state, caller.id, id, answer).await?;
    Ok(ApiJson(TaskStatusView { id: task.id, status: task.status }))
}

/// The other party accepts: the task is cancelled and a held payment refunded.
#[utoipa::path(post, path = "/api/tasks/{id}/cancellation/accept", tag = "payments", params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 200, body = TaskStatusView), (status = 401), (status = 403), (status = 404), (status = 409)))]
pub async fn accept_cancellation(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<TaskStatusView>> {
    answer(state, caller, id, Answer::Accept).await
}

/// The other party declines: the task carries on.
#[utoipa::path(post, path = "/api/tasks/{id}/cancellation/decline", tag = "payments", params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 200, body = TaskStatusView), (status = 401), (status = 403), (status = 404), (status = 409)))]
pub async fn decline_cancellation(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<TaskStatusView>> {
    answer(state, caller, id, Answer::Decline).await
}
