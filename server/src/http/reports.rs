//! Reports from signed-in users about a task, a profile, an offer, a question, a
//! message or a review; operators act on them from the moderation queue.

use axum::{Router, extract::State, http::StatusCode, routing::post};
use serde::Deserialize;

use domain::{
    moderation::reports::{self, Filing},
    wire::moderation::{ReportView, TargetRef},
};
use model::moderation::ReportReason;

use crate::http::{
    error::ApiResult,
    extract::{ApiJson, AuthUser},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/reports", post(file_report))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct ReportInput {
    pub target: TargetRef,
    pub reason: ReportReason,
    /// What happened, in the reporter's words (at most 1000 characters).
    #[serde(default)]
    pub details: Option<String>,
}

/// Reports something to the operators: 201 with the new report, or 200 with the caller's
/// report on the same target while it is still open (nothing is added). A target the caller
/// cannot see 404 (a message only its two parties may report); past 20 reports an hour 429.
#[utoipa::path(post, path = "/api/reports", tag = "moderation", request_body = ReportInput, security(("bearer" = [])),
    responses((status = 201, body = ReportView), (status = 200, body = ReportView), (status = 400), (status = 401),
        (status = 404), (status = 422), (status = 429)))]
pub async fn file_report(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiJson(input): ApiJson<ReportInput>,
) -> ApiResult<(StatusCode, ApiJson<ReportView>)> {
    let filing = Filing {
        reporter_id: caller.id,
        target_type: input.target.target_type,
        target_id: input.target.id,
        reason: input.reason,
        details: input.details.as_deref().unwrap_or_default(),
    };
    let (report, new) = reports::file(&state, &filing).await?;
    let status = if new { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, ApiJson(ReportView::from(&report))))
}
