//! After assignment, the way to completion: the tasker asks to be paid and the
//! poster releases the escrow (with a tip, if they like). Cancelling is
//! `http::cancellations`.

use axum::{Router, extract::State, routing::post};
use serde::Deserialize;

use domain::{
    payments::{payment_requests, releases},
    wire::assigned_tasks::{Released, TaskStatusView},
};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, AuthUser, RawBody, TaskFromPath},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tasks/{id}/request-payment", post(request_payment))
        .route("/tasks/{id}/release", post(release_payment))
}

/// The assigned tasker marks the work done and asks to be paid (`completion_requested`).
#[utoipa::path(post, path = "/api/tasks/{id}/request-payment", tag = "payments", params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 200, body = TaskStatusView), (status = 401), (status = 403), (status = 404), (status = 409)))]
pub async fn request_payment(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
) -> ApiResult<ApiJson<TaskStatusView>> {
    let task = payment_requests::request(&state, &task, caller.id).await?;
    Ok(ApiJson(TaskStatusView { id: task.id, status: task.status }))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct ReleaseInput {
    /// A tip for the tasker, paid in full (no service fee), A$1 to A$500, in cents.
    pub tip_cents: Option<i64>,
}

/// The poster releases the escrow: task `completed`, payout of amount − fee to the tasker (and of
/// any price increases paid). With `tip_cents` a checkout of the tip is opened after the release,
/// which never waits for it. Not the poster 403; not assigned 409; a bad tip or body 422/400.
#[utoipa::path(post, path = "/api/tasks/{id}/release", tag = "payments", params(("id" = Uuid, Path, description = "The task")),
    request_body(content = Option<ReleaseInput>, description = "Optional; an empty body releases without a tip"), security(("bearer" = [])),
    responses((status = 200, body = Released), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn release_payment(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
    RawBody(body): RawBody,
) -> ApiResult<ApiJson<Released>> {
    let input: ReleaseInput = if body.iter().all(u8::is_ascii_whitespace) {
        ReleaseInput::default()
    } else {
        serde_json::from_slice(&body).map_err(|_| ApiError::field("tip_cents", "Please enter a valid tip"))?
    };
    let release = releases::by_poster(&state, &task, caller.id, input.tip_cents).await?;
    let tip_error = release.tip_error.map(str::to_owned);
    Ok(ApiJson(Released { id: task.id, status: release.task.status, tip: release.tip, tip_error }))
}
