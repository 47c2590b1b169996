//! Operators look people up, suspend and reinstate them, and read the audit log.

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    db::Timestamp,
    http::error::{ApiError, ApiResult},
    http::{
        admin_reports::AuthorSummary,
        extract::{ApiJson, ApiPath, ApiQuery, Operator},
    },
    moderation::{AuditAction, AuditTarget, ModerationAction, ReportReason, ReportStatus, TargetType, actions},
    state::AppState,
    store::{
        Position,
        audit_log::{self, AuditRow},
        reports::{self, ReportRow},
        user_record,
    },
    wire::{
        paging::{self, Page, PageQuery},
        user_record::{RecordDispute, RecordOffer, RecordPayment, RecordTask},
    },
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

/// A report as the operator sees it in a user's record.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ReportRecord {
    pub id: Uuid,
    pub target_type: TargetType,
    pub target_id: Uuid,
    pub reporter_id: Uuid,
    pub author_id: Uuid,
    pub reason: ReportReason,
    pub details: String,
    pub snapshot: String,
    pub status: ReportStatus,
    pub action: Option<ModerationAction>,
    pub created_at: Timestamp,
    pub resolved_at: Option<Timestamp>,
}

impl From<ReportRow> for ReportRecord {
    fn from(row: ReportRow) -> Self {
        Self {
            id: row.id,
            target_type: row.target_type,
            target_id: row.target_id,
            reporter_id: row.reporter_id,
            author_id: row.author_id,
            reason: row.reason,
            details: row.details,
            snapshot: row.snapshot,
            status: row.status,
            action: row.action,
            created_at: row.created_at,
            resolved_at: row.resolved_at,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AuditTargetRef {
    #[serde(rename = "type")]
    pub target_type: AuditTarget,
    pub id: Uuid,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct OperatorRef {
    pub id: Uuid,
    pub email: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AuditItem {
    pub id: Uuid,
    pub operator: OperatorRef,
    pub action: AuditAction,
    pub target: AuditTargetRef,
    pub note: String,
    pub created_at: Timestamp,
}

impl From<AuditRow> for AuditItem {
    fn from(row: AuditRow) -> Self {
        Self {
            id: row.id,
            operator: OperatorRef { id: row.operator_id, email: row.operator_email },
            action: row.action,
            target: AuditTargetRef { target_type: row.target_type, id: row.target_id },
            note: row.note,
            created_at: row.created_at,
        }
    }
}

/// Everything an operator needs about one person: who they are, their tasks (posted or
/// assigned), offers, disputes and payments, the reports by and about them, and the actions
/// taken on them. Each list newest first, at most 100.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UserRecord {
    pub user: AuthorSummary,
    pub suspension_reason: Option<String>,
    pub tasks: Vec<RecordTask>,
    pub offers: Vec<RecordOffer>,
    pub disputes: Vec<RecordDispute>,
    pub payments: Vec<RecordPayment>,
    pub reports: Vec<ReportRecord>,
    pub actions: Vec<AuditItem>,
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
    let suspension = crate::store::moderation::suspension_of(&state.db, id, now).await?;
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
    if id == operator.id {
        return Err(ApiError::Forbidden("You cannot suspend yourself".into()));
    }
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
