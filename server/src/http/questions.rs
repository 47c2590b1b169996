//! Public questions on tasks (the detail screen's "Ask a question") and the poster's answers.

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::{
    marketplace,
    wire::{
        marketplace::QuestionView,
        paging::{self, Page, PageQuery},
    },
};
use store::{Position, questions};

use crate::http::{
    error::ApiResult,
    extract::{ApiJson, ApiPath, ApiQuery, AuthUser, Operator, TaskFromPath, VerifiedUser},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tasks/{id}/questions", get(list_questions).post(ask_question))
        .route("/questions/{id}/answer", post(answer_question))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct BodyInput {
    body: Option<String>,
}

/// A task's questions, oldest first, a page at a time.
#[utoipa::path(get, path = "/api/tasks/{id}/questions", tag = "marketplace", security((), ("bearer" = [])),
    params(("id" = Uuid, Path, description = "Task id"), PageQuery),
    responses((status = 200, body = Page<QuestionView>), (status = 400), (status = 404), (status = 422)))]
pub async fn list_questions(
    State(state): State<AppState>,
    caller: Option<AuthUser>,
    TaskFromPath(task): TaskFromPath,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> ApiResult<ApiJson<Page<QuestionView>>> {
    let (after, limit) = query.parse()?;
    let rows = questions::questions_page(&state.db, task.id, after, limit + 1).await?;
    let (rows, next_cursor) = paging::finish(rows, limit, |row| Position { created_at: row.created_at, id: row.id });
    let operator = Operator::reading(&state, caller).await?;
    Ok(ApiJson(Page::new(rows.iter().map(|row| QuestionView::as_read(row, operator)).collect(), next_cursor)))
}

/// Asks a public question on an open task; the poster answers rather than asks.
#[utoipa::path(post, path = "/api/tasks/{id}/questions", tag = "marketplace", params(("id" = Uuid, Path, description = "The task")), request_body = BodyInput, security(("bearer" = [])),
    responses((status = 201, body = QuestionView), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn ask_question(
    State(state): State<AppState>,
    VerifiedUser(caller): VerifiedUser,
    TaskFromPath(task): TaskFromPath,
    ApiJson(input): ApiJson<BodyInput>,
) -> ApiResult<(StatusCode, ApiJson<QuestionView>)> {
    let row = marketplace::questions::ask(&state, &task, caller.id, input.body.as_deref()).await?;
    Ok((StatusCode::CREATED, ApiJson(QuestionView::from(&row))))
}

/// Answers a question on the caller's own task, once.
#[utoipa::path(post, path = "/api/questions/{id}/answer", tag = "marketplace", params(("id" = Uuid, Path, description = "The question")), request_body = BodyInput, security(("bearer" = [])),
    responses((status = 200, body = QuestionView), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn answer_question(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(input): ApiJson<BodyInput>,
) -> ApiResult<ApiJson<QuestionView>> {
    let row = marketplace::questions::answer(&state, caller.id, id, input.body.as_deref()).await?;
    Ok(ApiJson(QuestionView::from(&row)))
}
