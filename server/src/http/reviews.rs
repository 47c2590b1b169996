//! Reviews both ways once a task is completed (1–5 and a text), hidden until
//! both are in or 14 days have passed.

use axum::{Router, extract::State, http::StatusCode, routing::get};
use serde::Deserialize;

use domain::{marketplace, wire::reviews::Review};
use store::{db::Timestamp, reviews};

use crate::http::{
    error::ApiResult,
    extract::{ApiJson, AuthUser, Operator, TaskFromPath},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/tasks/{id}/reviews", get(list_reviews).post(write_review))
}

/// The task's visible reviews (and the caller's own, even while hidden).
#[utoipa::path(get, path = "/api/tasks/{id}/reviews", tag = "payments", security((), ("bearer" = [])), params(("id" = Uuid, Path, description = "The task")),
    responses((status = 200, body = [Review]), (status = 404)))]
pub async fn list_reviews(
    State(state): State<AppState>,
    caller: Option<AuthUser>,
    TaskFromPath(task): TaskFromPath,
) -> ApiResult<ApiJson<Vec<Review>>> {
    let operator = Operator::reading(&state, caller).await?;
    let rows =
        reviews::visible_reviews_for_task(&state.db, task.id, caller.map(|c| c.id), operator, Timestamp::now()).await?;
    Ok(ApiJson(rows.iter().map(Review::from).collect()))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct ReviewInput {
    pub rating: i64,
    pub body: String,
}

/// The poster reviews the tasker, or the tasker the poster; once each.
#[utoipa::path(post, path = "/api/tasks/{id}/reviews", tag = "payments", params(("id" = Uuid, Path, description = "The task")), request_body = ReviewInput, security(("bearer" = [])),
    responses((status = 201, body = Review), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn write_review(
    State(state): State<AppState>,
    caller: AuthUser,
    TaskFromPath(task): TaskFromPath,
    ApiJson(input): ApiJson<ReviewInput>,
) -> ApiResult<(StatusCode, ApiJson<Review>)> {
    let review = marketplace::reviews::write(&state, &task, caller.id, input.rating, &input.body).await?;
    Ok((StatusCode::CREATED, ApiJson(Review::from(&review))))
}
