//! Reviews both ways once a task is completed (1–5 and a text), hidden until
//! both are in or 14 days have passed.

use axum::{Router, extract::State, http::StatusCode, routing::get};
use serde::Deserialize;

use crate::{
    db::{Timestamp, new_id},
    error::{ApiError, ApiResult, FieldErrors},
    http::extract::{ApiJson, AuthUser, Operator, TaskFromPath},
    live, notices,
    payments::rules::{self, Party},
    state::AppState,
    store::reviews::{self, ReviewRow},
    wire::reviews::Review,
};

const MAX_REVIEW_CHARS: usize = 2000;

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
    let party = Party::of(caller.id, task.poster_id, task.assigned_tasker_id);
    rules::may_review(party, &task.status)?;
    let mut fields = FieldErrors::new();
    if !(1..=5).contains(&input.rating) {
        fields.insert("rating".into(), "Please choose a rating from 1 to 5".into());
    }
    let body = input.body.trim();
    if body.is_empty() || body.chars().count() > MAX_REVIEW_CHARS {
        fields.insert("body".into(), "Please write a few words about your experience".into());
    }
    ApiError::check_fields(fields)?;
    let reviewee_id = if party == Party::Poster { task.assigned_tasker_id.unwrap_or_default() } else { task.poster_id };
    let now = Timestamp::now();
    let review = ReviewRow {
        id: new_id(),
        task_id: task.id,
        reviewer_id: caller.id,
        reviewee_id,
        rating: input.rating,
        body: Some(body.to_owned()),
        removed: false,
        created_at: now,
    };
    let notification = notices::new_review(reviewee_id, task.id, &task.title, now);
    if !reviews::insert_review(&state.db, &review, &notification).await? {
        return Err(ApiError::Conflict("You have already reviewed this task".into()));
    }
    live::notifications_created(&state, &[notification]).await;
    Ok((StatusCode::CREATED, ApiJson(Review::from(&review))))
}
