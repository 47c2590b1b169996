//! The signed-in user's notifications: list, mark one read, mark all read.

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::wire::{
    notifications::{Notification, NotificationsPage},
    paging::{self, Page},
};
use store::notifications;

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiPath, ApiQuery, AuthUser},
    state::AppState,
};

const DEFAULT_PAGE: i64 = 20;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/notifications", get(list_notifications))
        .route("/notifications/read-all", post(mark_all_read))
        .route("/notifications/{id}/read", post(mark_read))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct NotificationsQuery {
    unread_only: Option<String>,
    /// 1-100, default 20.
    limit: Option<String>,
    cursor: Option<String>,
}

/// Newest first.
#[utoipa::path(get, path = "/api/notifications", tag = "notifications", params(NotificationsQuery), security(("bearer" = [])),
    responses((status = 200, body = NotificationsPage), (status = 401), (status = 422)))]
pub async fn list_notifications(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiQuery(query): ApiQuery<NotificationsQuery>,
) -> ApiResult<ApiJson<NotificationsPage>> {
    let unread_only = match query.unread_only.as_deref().map(str::trim) {
        None | Some("" | "false" | "0") => false,
        Some("true" | "1") => true,
        Some(_) => return Err(ApiError::field("unread_only", "unread_only must be true or false")),
    };
    let limit = paging::parse_limit(query.limit.as_deref(), DEFAULT_PAGE)?;
    let before = paging::decode_id(query.cursor.as_deref())?;
    let rows = notifications::notifications_page(&state.db, caller.id, unread_only, before, limit + 1).await?;
    let (rows, next_cursor) = paging::cut(rows, limit, |row| paging::encode_id(row.id));
    let unread_count = notifications::unread_count(&state.db, caller.id).await?;
    let items = rows.iter().map(Notification::from).collect();
    Ok(ApiJson(NotificationsPage::new(Page::new(items, next_cursor), unread_count)))
}

#[utoipa::path(post, path = "/api/notifications/{id}/read", tag = "notifications", params(("id" = Uuid, Path, description = "The notification")), security(("bearer" = [])),
    responses((status = 204), (status = 401), (status = 404)))]
pub async fn mark_read(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    if !notifications::mark_read(&state.db, caller.id, id).await? {
        // Someone else's notification looks the same as none at all.
        return Err(ApiError::not_found("Notification"));
    }
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/api/notifications/read-all", tag = "notifications", security(("bearer" = [])),
    responses((status = 204), (status = 401)))]
pub async fn mark_all_read(State(state): State<AppState>, caller: AuthUser) -> ApiResult<StatusCode> {
    notifications::mark_all_read(&state.db, caller.id).await?;
    Ok(StatusCode::NO_CONTENT)
}
