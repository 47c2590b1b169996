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

use super::release::{TaskStatus, moved_on, status_of};
use crate::{
    db::Timestamp,
    error::{ApiError, ApiResult},
    http::extract::{ApiJson, ApiPath, AuthUser, TaskFromPath, task_or_404},
    live, notices,
    payments::{
        escrow,
        rules::{self, Party},
    },
    state::AppState,
    store::cancellations::{self, Answer, CancellationError},
    wire::assigned_tasks::Cancellation,
};

const MAX_REASON_CHARS: usize = 1000;

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
    let party = Party::of(caller.id, task.poster_id, task.assigned_tasker_id);
    rules::may_request_cancellation(party, &task.status)?;
    rules::not_under_dispute(task.open_dispute_id)?;
    let reason = input.reason.trim();
    if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
        return Err(ApiError::field("reason", "Please give a reason for cancelling"));
    }
    let reason_code = crate::marketplace::cancellations::reason(input.reason_code.as_deref())?;
    rules::poster_asks_once(party, cancellations::poster_asked_to_cancel(&state.db, task.id).await?)?;
    let other = if party == Party::Poster { task.assigned_tasker_id.unwrap_or_default() } else { task.poster_id };
    let notification = notices::cancellation_requested(other, party, task.id, &task.title, reason, Timestamp::now());
    let row = cancellations::request_cancellation(
        &state.db,
        task.id,
        caller.id,
        reason,
        reason_code,
        &notification,
        Timestamp::now(),
    )
    .await
    .map_err(|error| match error {
        CancellationError::WrongState => moved_on(),
        CancellationError::AlreadyRequested => {
            ApiError::Conflict("A cancellation request is already waiting for an answer".into())
        }
        CancellationError::Database(error) => error.into(),
    })?;
    live::notifications_created(&state, &[notification]).await;
    Ok((axum::http::StatusCode::CREATED, ApiJson(Cancellation::from(&row))))
}

async fn answer(state: AppState, caller: AuthUser, id: Uuid, answer: Answer) -> ApiResult<ApiJson<TaskStatus>> {
    let task = task_or_404(&state, id).await?;
    let party = Party::of(caller.id, task.poster_id, task.assigned_tasker_id);
    if party == Party::Other {
        return Err(ApiError::Forbidden("Only the other party can answer this request".into()));
    }
    let request = cancellations::pending_cancellation(&state.db, id).await?;
    let request = request.ok_or_else(|| ApiError::Conflict("There is no cancellation request to answer".into()))?;
    rules::may_answer_cancellation(party, Party::of(request.requested_by, task.poster_id, task.assigned_tasker_id))?;
    rules::not_under_dispute(task.open_dispute_id)?;
    if !escrow::answer_cancellation(&state, &task, &request, answer).await? {
        return Err(moved_on());
    }
    status_of(&state, id).await
}

/// The other party accepts: the task is cancelled and a held payment refunded.
#[utoipa::path(post, path = "/api/tasks/{id}/cancellation/accept", tag = "payments", params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 200, body = TaskStatus), (status = 401), (status = 403), (status = 404), (status = 409)))]
pub async fn accept_cancellation(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<TaskStatus>> {
    answer(state, caller, id, Answer::Accept).await
}

/// The other party declines: the task carries on.
#[utoipa::path(post, path = "/api/tasks/{id}/cancellation/decline", tag = "payments", params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 200, body = TaskStatus), (status = 401), (status = 403), (status = 404), (status = 409)))]
pub async fn decline_cancellation(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<TaskStatus>> {
    answer(state, caller, id, Answer::Decline).await
}
