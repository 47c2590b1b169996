//! The moderation queue (operators only): one item per reported target, and the one
//! decision that resolves every open report on it.

use axum::{
    Router,
    extract::State,
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::{
    moderation::{
        actions::{self, Decision},
        reports::snapshot,
    },
    wire::{
        moderation::{AuthorSummary, CurrentState, QueueItem, ReportView, ReportedTarget},
        paging::{self, Page, PageQuery},
    },
};
use model::moderation::{ModerationAction, ReportStatus};
use store::{
    Position,
    db::Timestamp,
    reports::{self, QueueRow},
};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiPath, ApiQuery, Operator},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/admin/reports", get(report_queue)).route("/admin/reports/{id}/resolve", post(resolve_report))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct ReportQueueQuery {
    /// `open` (default) or `resolved`.
    pub status: Option<String>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// 1-100, default 50.
    pub limit: Option<String>,
}

async fn queue_item(state: &AppState, row: QueueRow, status: ReportStatus, now: Timestamp) -> ApiResult<QueueItem> {
    let current = reports::content(&state.db, row.target_type, row.target_id, now).await?;
    let author = reports::author_facts(&state.db, row.author_id).await?.ok_or_else(|| ApiError::not_found("Author"))?;
    Ok(QueueItem {
        id: row.id,
        target: ReportedTarget {
            target_type: row.target_type,
            id: row.target_id,
            snapshot: row.snapshot,
            current: CurrentState {
                removed: current.as_ref().is_some_and(|content| content.removed),
                text: current.as_ref().map(snapshot),
            },
        },
        author: AuthorSummary::new(author, now),
        reporters: row.reporters,
        reasons: reports::reasons_for(&state.db, row.target_type, row.target_id, status).await?,
        status,
        created_at: row.created_at,
    })
}

/// Reported targets, oldest first: each with its snapshot, its current state, the author's
/// history, the number of distinct reporters and their reasons.
#[utoipa::path(get, path = "/api/admin/reports", tag = "admin", params(ReportQueueQuery), security(("bearer" = [])),
    responses((status = 200, body = Page<QueueItem>), (status = 400), (status = 401), (status = 403), (status = 422)))]
pub async fn report_queue(
    State(state): State<AppState>,
    _operator: Operator,
    ApiQuery(query): ApiQuery<ReportQueueQuery>,
) -> ApiResult<ApiJson<Page<QueueItem>>> {
    let status = match query.status.as_deref().map(str::trim) {
        None | Some("") | Some("open") => ReportStatus::Open,
        Some("resolved") => ReportStatus::Resolved,
        Some(_) => return Err(ApiError::field("status", "Status must be open or resolved")),
    };
    let (after, limit) = PageQuery { cursor: query.cursor, limit: query.limit }.parse()?;
    let rows = reports::queue_page(&state.db, status, after, limit + 1).await?;
    let (rows, next_cursor) = paging::finish(rows, limit, |row| Position { created_at: row.created_at, id: row.id });
    let now = Timestamp::now();
    let mut items = Vec::with_capacity(rows.len());
    for row in rows {
        items.push(queue_item(&state, row, status, now).await?);
    }
    Ok(ApiJson(Page::new(items, next_cursor)))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ResolveReportInput {
    pub action: ModerationAction,
    /// Why (the author reads it for a removal, warning or suspension); 1-2000 characters.
    #[serde(default)]
    pub note: String,
    /// For `suspend`: 1-3650 days; none suspends until reinstated.
    #[serde(default)]
    pub suspend_days: Option<i64>,
}

/// Resolves every open report on the report's target: dismiss, remove the content (a task
/// only while open; a paid one 409), warn the author, or suspend them. Already resolved 409.
#[utoipa::path(post, path = "/api/admin/reports/{id}/resolve", tag = "admin", request_body = ResolveReportInput,
    params(("id" = Uuid, Path, description = "A report on the target")), security(("bearer" = [])),
    responses((status = 200, body = ReportView), (status = 400), (status = 401), (status = 403), (status = 404),
        (status = 409), (status = 422)))]
pub async fn resolve_report(
    State(state): State<AppState>,
    operator: Operator,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(input): ApiJson<ResolveReportInput>,
) -> ApiResult<ApiJson<ReportView>> {
    let decision = Decision {
        report_id: id,
        action: input.action,
        note: &input.note,
        suspend_days: input.suspend_days,
        operator_id: operator.id,
    };
    let resolved = actions::resolve(&state, &decision).await?;
    Ok(ApiJson(ReportView::from(&resolved)))
}
