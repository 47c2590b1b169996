//! Operators look people up, suspend and reinstate them, and read the audit log.

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::{
    moderation::actions,
    wire::{
        moderation::{AuditItem, AuthorSummary},
        paging::{self, Page, PageQuery},
        user_record::{ReportRecord, UserRecord},
    },
};
use store::{Position, audit_log, db::Timestamp, reports, user_record};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiPath, ApiQuery, Operator},
    state::AppState,
};

const HISTORY_LIMIT: i64 = 100;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/users", get(search_users))
        .route("/admin/users/{id}", get(user_record))
        .route("/admin/users/{id}/suspend", post(suspend_user))
        .route("/admin/users/{id}/reinstate", post(reinstate_user))
        .route("/admin/audit", get(audit_log_page))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct UserSearchQuery {
    /// Part of a name or an email address.
    pub q: Option<String>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// 1-100, default 50.
    pub limit: Option<String>,
}

/// People whose name or email contains `q`, newest accounts first.
#[utoipa::path(get, path = "/api/admin/users", tag = "admin", params(UserSearchQuery), security(("bearer" = [])),
    responses((status = 200, body = Page<AuthorSummary>), (status = 400), (status = 401), (status = 403), (status = 422)))]
pub async fn search_users(
    State(state): State<AppState>,
    _operator: Operator,
    ApiQuery(query): ApiQuery<UserSearchQuery>,
) -> ApiResult<ApiJson<Page<AuthorSummary>>> {
    let (after, limit) = PageQuery { cursor: query.cursor, limit: query.limit }.parse()?;
    let text = query.q.unwrap_or_default();
    let rows = reports::search_users(&state.db, text.trim(), after.map(|at| at.id), limit + 1).await?;
    let (rows, next_cursor) = paging::finish(rows, limit, |row| Position { created_at: row.created_at, id: row.id });
    let now = Timestamp::now();
    Ok(ApiJson(Page::new(rows.into_iter().map(|row| AuthorSummary::new(row, now)).collect(), next_cursor)))
}

#[utoipa::path(get, path = "/api/admin/users/{id}", tag = "admin",
    params(("id" = Uuid, Path, description = "The user")), security(("bearer" = [])),
    responses((status = 200, body = UserRecord), (status = 401), (status = 403), (status = 404)))]
pub async fn user_record(
    State(state): State<AppState>,
    _operator: Operator,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<ApiJson<UserRecord>> {
    let facts = reports::author_facts(&state.db, id).await?.ok_or_else(|| ApiError::not_found("User"))?;
    let now = Timestamp::now();
    let suspension = store::moderation::suspension_of(&state.db, id, now).await?;
    Ok(ApiJson(UserRecord {
        user: AuthorSummary::new(facts, now),
        suspension_reason: suspension.and_then(|s| s.suspension_reason),
        tasks: user_record::tasks_of(&state.db, id, HISTORY_LIMIT).await?.iter().map(From::from).collect(),
        offers: user_record::offers_of(&state.db, id, HISTORY_LIMIT).await?.iter().map(From::from).collect(),
        disputes: user_record::disputes_of(&state.db, id, HISTORY_LIMIT).await?.iter().map(From::from).collect(),
        payments: user_record::payments_of(&state.db, id, now, HISTORY_LIMIT).await?.iter().map(From::from).collect(),
        reports: reports::reports_involving(&state.db, id, HISTORY_LIMIT)
            .await?
            .into_iter()
            .map(ReportRecord::from)
            .collect(),
        actions: audit_log::actions_on(&state.db, id, HISTORY_LIMIT).await?.into_iter().map(AuditItem::from).collect(),
    }))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct SuspendInput {
    /// Why; the user is told. 1-2000 characters.
    pub reason: String,
    /// 1-3650 days; none suspends until reinstated.
    pub days: Option<i64>,
}

/// Suspends an account: its sessions end (access tokens stop within seconds), its pending
/// offers are withdrawn, its open tasks leave browse; held money continues. Suspending a
/// suspended account replaces the end date and reason.
#[utoipa::path(post, path = "/api/admin/users/{id}/suspend", tag = "admin", request_body = SuspendInput,
    params(("id" = Uuid, Path, description = "The user")), security(("bearer" = [])),
    responses((status = 204), (status = 400), (status = 401), (status = 403), (status = 404), (status = 422)))]
pub async fn suspend_user(
    State(state): State<AppState>,
    operator: Operator,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(input): ApiJson<SuspendInput>,
) -> ApiResult<StatusCode> {
    actions::suspend(&state, operator.id, id, &input.reason, input.days).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct ReinstateInput {
    pub note: Option<String>,
}

/// Ends a suspension in force and lifts the holds on the user's transfers, which outlive a
/// suspension that ended by itself (409 when there is neither).
#[utoipa::path(post, path = "/api/admin/users/{id}/reinstate", tag = "admin", request_body = ReinstateInput,
    params(("id" = Uuid, Path, description = "The user")), security(("bearer" = [])),
    responses((status = 204), (status = 400), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn reinstate_user(
    State(state): State<AppState>,
    operator: Operator,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(input): ApiJson<ReinstateInput>,
) -> ApiResult<StatusCode> {
    actions::reinstate(&state, operator.id, id, input.note.as_deref().unwrap_or_default()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Every operator action, newest first.
#[utoipa::path(get, path = "/api/admin/audit", tag = "admin", params(PageQuery), security(("bearer" = [])),
    responses((status = 200, body = Page<AuditItem>), (status = 400), (status = 401), (status = 403), (status = 422)))]
pub async fn audit_log_page(
    State(state): State<AppState>,
    _operator: Operator,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> ApiResult<ApiJson<Page<AuditItem>>> {
    let (after, limit) = query.parse()?;
    let rows = audit_log::audit_page(&state.db, after.map(|at| at.id), limit + 1).await?;
    let (rows, next_cursor) = paging::finish(rows, limit, |row| Position { created_at: row.created_at, id: row.id });
    Ok(ApiJson(Page::new(rows.into_iter().map(AuditItem::from).collect(), next_cursor)))
}
