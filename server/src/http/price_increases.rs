//! Price increases after assignment: the assigned tasker asks for more, the
//! poster approves (a checkout of the difference) or declines.

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::{
    payments::{escrow::CheckoutStarted, increases},
    wire::assigned_tasks::{IncreaseList, PriceIncrease},
};
use model::payments::rules::Party;

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiPath, AuthUser, TaskFromPath},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tasks/{id}/price-increases", get(list_increases).post(ask_increase))
        .route("/price-increases/{id}/approve", post(approve_increase))
        .route("/price-increases/{id}/decline", post(decline_increase))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct IncreaseInput {
    /// How much more, in cents (at least 100).
    pub amount_cents: Option<i64>,
    pub reason: String,
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct DeclineInput {
    pub reason: Option<String>,
}

/// The assigned tasker asks for more while the task is assigned (not disputed,
/// not waiting for release): not the tasker 403; wrong state or another
/// increase waiting 409; a bad amount, missing reason or over the cap (A$2,500
/// or the original amount, whichever is smaller, for all increases) 422.
#[utoipa::path(post, path = "/api/tasks/{id}/price-increases", tag = "payments", params(("id" = Uuid, Path, description = "The task")),
    request_body = IncreaseInput, security(("bearer" = [])),
    responses((status = 201, body = PriceIncrease), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn ask_increase(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
    ApiJson(input): ApiJson<IncreaseInput>,
) -> ApiResult<(StatusCode, ApiJson<PriceIncrease>)> {
    let row = increases::ask(&state, &task, caller.id, input.amount_cents, &input.reason).await?;
    Ok((StatusCode::CREATED, ApiJson(PriceIncrease::from(&row))))
}

/// The task's price increases, oldest first (its poster and assigned tasker only: 403).
#[utoipa::path(get, path = "/api/tasks/{id}/price-increases", tag = "payments", params(("id" = Uuid, Path, description = "The task")),
    security(("bearer" = [])),
    responses((status = 200, body = IncreaseList), (status = 401), (status = 403), (status = 404)))]
pub async fn list_increases(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
) -> ApiResult<ApiJson<IncreaseList>> {
    if Party::of(caller.id, task.poster_id, task.assigned_tasker_id) == Party::Other {
        return Err(ApiError::Forbidden("Only the poster and the assigned tasker can see this".into()));
    }
    Ok(ApiJson(IncreaseList {
        items: store::price_increases::for_task(&state.db, task.id).await?.iter().map(From::from).collect(),
    }))
}

/// The poster approves a pending increase: the answer is a checkout of the
/// difference, exactly as Accept & Pay. Not the poster 403; no longer pending,
/// or the task released, cancelled or disputed meanwhile 409.
#[utoipa::path(post, path = "/api/price-increases/{id}/approve", tag = "payments", params(("id" = Uuid, Path, description = "The price increase")),
    security(("bearer" = [])),
    responses((status = 200, body = CheckoutStarted), (status = 400), (status = 401), (status = 403), (status = 404), (status = 409), (status = 503)))]
pub async fn approve_increase(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<CheckoutStarted>> {
    Ok(ApiJson(increases::approve(&state, caller.id, id).await?))
}

/// The poster declines a pending increase, with an optional reason. Not the
/// poster 403; no longer pending 409; a reason over 1,000 characters 422.
#[utoipa::path(post, path = "/api/price-increases/{id}/decline", tag = "payments", params(("id" = Uuid, Path, description = "The price increase")),
    request_body = DeclineInput, security(("bearer" = [])),
    responses((status = 200, body = PriceIncrease), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn decline_increase(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(input): ApiJson<DeclineInput>,
) -> ApiResult<ApiJson<PriceIncrease>> {
    Ok(ApiJson(PriceIncrease::from(&increases::decline(&state, caller.id, id, input.reason.as_deref()).await?)))
}
