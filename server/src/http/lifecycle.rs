//! After assignment: the tasker asks to be paid, the poster releases, and
//! either party asks to cancel while the other accepts or declines.

use axum::{
    Router,
    extract::State,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    db::Timestamp,
    error::{ApiError, ApiResult},
    http::extract::{ApiJson, ApiPath, AuthUser, RawBody, TaskFromPath, task_or_404},
    live,
    payments::{
        lifecycle::{self, CheckoutStarted},
        rules::{self, Party},
        tips,
    },
    state::AppState,
    store::lifecycle::{self as store, Answer, CancellationError, CancellationRow},
};

const MAX_REASON_CHARS: usize = 1000;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tasks/{id}/request-payment", post(request_payment))
        .route("/tasks/{id}/release", post(release_payment))
        .route("/tasks/{id}/cancellation", get(cancellation).post(request_cancellation))
        .route("/tasks/{id}/cancellation/accept", post(accept_cancellation))
        .route("/tasks/{id}/cancellation/decline", post(decline_cancellation))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TaskStatus {
    pub id: Uuid,
    pub status: String,
}

async fn status_of(state: &AppState, id: Uuid) -> ApiResult<ApiJson<TaskStatus>> {
    let task = task_or_404(state, id).await?;
    Ok(ApiJson(TaskStatus { id, status: task.status }))
}

fn moved_on() -> ApiError {
    ApiError::Conflict("The task changed meanwhile; reload it and try again".into())
}

/// The assigned tasker marks the work done and asks to be paid (`completion_requested`).
#[utoipa::path(post, path = "/api/tasks/{id}/request-payment", tag = "payments", params(("id" = Uuid, Path, description = "The task")), security(("bearer" = [])),
    responses((status = 200, body = TaskStatus), (status = 401), (status = 403), (status = 404), (status = 409)))]
pub async fn request_payment(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
) -> ApiResult<ApiJson<TaskStatus>> {
    rules::may_request_payment(Party::of(caller.id, task.poster_id, task.assigned_tasker_id), &task.status)?;
    rules::not_under_dispute(task.open_dispute_id)?;
    let notification =
        store::request_payment(&state.db, task.id, caller.id, task.poster_id, &task.title, Timestamp::now()).await?;
    let notification = notification.ok_or_else(moved_on)?;
    live::notifications_created(&state, &[notification]).await;
    lifecycle::publish_task(&state, task.id).await;
    status_of(&state, task.id).await
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct ReleaseInput {
    /// A tip for the tasker, paid in full (no service fee), A$1 to A$500, in cents.
    pub tip_cents: Option<i64>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Released {
    pub id: Uuid,
    pub status: String,
    /// The tip's checkout, when a tip was asked for and could be opened.
    pub tip: Option<CheckoutStarted>,
    /// Why the tip's checkout could not be opened (the release went ahead regardless).
    pub tip_error: Option<String>,
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
    rules::may_release(Party::of(caller.id, task.poster_id, task.assigned_tasker_id), &task.status)?;
    if input.tip_cents.is_some_and(|cents| !tips::valid_tip(cents)) {
        return Err(ApiError::field("tip_cents", "A tip must be between $1.00 and $500.00"));
    }
    lifecycle::release(&state, &task, Some(caller.id), None).await?.ok_or_else(moved_on)?;
    let (tip, tip_error) = match input.tip_cents {
        None => (None, None),
        Some(cents) => {
            match tips::start(&state, &task, cents).await {
                Ok(checkout) => (Some(checkout), None),
                Err(error) => {
                    tracing::warn!(?error, task_id = %task.id, "could not open a tip's checkout after a release");
                    (None, Some("The payment was released, but the tip could not be started. You have not been charged for it.".to_owned()))
                }
            }
        }
    };
    let status = task_or_404(&state, task.id).await?.status;
    Ok(ApiJson(Released { id: task.id, status, tip, tip_error }))
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
    responses((status = 200, body = Option<CancellationRow>), (status = 401), (status = 403), (status = 404)))]
pub async fn cancellation(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
) -> ApiResult<ApiJson<Option<CancellationRow>>> {
    if Party::of(caller.id, task.poster_id, task.assigned_tasker_id) == Party::Other {
        return Err(ApiError::Forbidden("Only the poster and the assigned tasker can see this".into()));
    }
    Ok(ApiJson(store::pending_cancellation(&state.db, task.id).await?))
}

/// Either party of an assigned task asks to cancel, with a reason; the other has 48 h to answer.
/// A poster asks once per task (409 after that: a disagreement goes to a dispute).
#[utoipa::path(post, path = "/api/tasks/{id}/cancellation", tag = "payments", params(("id" = Uuid, Path, description = "The task")), request_body = CancellationInput, security(("bearer" = [])),
    responses((status = 201, body = CancellationRow), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn request_cancellation(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
    ApiJson(input): ApiJson<CancellationInput>,
) -> ApiResult<(axum::http::StatusCode, ApiJson<CancellationRow>)> {
    let party = Party::of(caller.id, task.poster_id, task.assigned_tasker_id);
    rules::may_request_cancellation(party, &task.status)?;
    rules::not_under_dispute(task.open_dispute_id)?;
    let reason = input.reason.trim();
    if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
        return Err(ApiError::field("reason", "Please give a reason for cancelling"));
    }
    let reason_code = crate::marketplace::cancellations::reason(input.reason_code.as_deref())?;
    rules::poster_asks_once(party, store::poster_asked_to_cancel(&state.db, task.id).await?)?;
    let notification = lifecycle::cancellation_requested_notice(&task, party, reason, Timestamp::now());
    let row = store::request_cancellation(
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
    Ok((axum::http::StatusCode::CREATED, ApiJson(row)))
}

async fn answer(state: AppState, caller: AuthUser, id: Uuid, answer: Answer) -> ApiResult<ApiJson<TaskStatus>> {
    let task = task_or_404(&state, id).await?;
    let party = Party::of(caller.id, task.poster_id, task.assigned_tasker_id);
    if party == Party::Other {
        return Err(ApiError::Forbidden("Only the other party can answer this request".into()));
    }
    let request = store::pending_cancellation(&state.db, id).await?;
    let request = request.ok_or_else(|| ApiError::Conflict("There is no cancellation request to answer".into()))?;
    rules::may_answer_cancellation(party, Party::of(request.requested_by, task.poster_id, task.assigned_tasker_id))?;
    rules::not_under_dispute(task.open_dispute_id)?;
    if !lifecycle::answer_cancellation(&state, &task, &request, answer).await? {
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
