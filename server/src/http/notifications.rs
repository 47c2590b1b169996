//! The signed-in user's notifications: list, mark one read, mark all read.

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{
    error::{ApiError, ApiResult},
    http::extract::{ApiJson, ApiPath, ApiQuery, AuthUser},
    state::AppState,
    store::notifications::{self, NotificationRow},
};

const DEFAULT_PAGE: i64 = 20;
const MAX_PAGE: i64 = 100;

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

#[derive(Serialize, utoipa::ToSchema)]
pub struct NotificationsPage {
    items: Vec<NotificationRow>,
    unread_count: i64,
    next_cursor: Option<String>,
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
    let limit = match query.limit.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
        None => DEFAULT_PAGE,
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|limit| (1..=MAX_PAGE).contains(limit))
            .ok_or_else(|| ApiError::field("limit", "Limit must be a number from 1 to 100"))?,
    };
    let before =
        match query.cursor.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
            None => None,
            Some(text) => {
                Some(URL_SAFE_NO_PAD.decode(text).ok().and_then(|bytes| Uuid::from_slice(&bytes).ok()).ok_or_else(
                    || ApiError::BadRequest("The cursor is invalid; start again from the first page".into()),
                )?)
            }
        };
    let mut items = notifications::notifications_page(&state.db, caller.id, unread_only, before, limit + 1).await?;
    let next_cursor = if items.len() as i64 > limit {
        items.truncate(limit as usize);
        items.last().map(|last| URL_SAFE_NO_PAD.encode(last.id.as_bytes()))
    } else {
        None
    };
    let unread_count = notifications::unread_count(&state.db, caller.id).await?;
    Ok(ApiJson(NotificationsPage { items, unread_count, next_cursor }))
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
