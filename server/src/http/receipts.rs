//! Read receipts in a task's conversation, and what a user shares with the other party of their
//! tasks (online state, read receipts). Sharing is mutual: whoever turns a kind off sees the
//! other's no more either.

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::Deserialize;
use uuid::Uuid;

use domain::marketplace;
use store::{
    db::Timestamp,
    receipts::{self, Privacy},
};

use crate::http::{
    error::ApiResult,
    extract::{ApiJson, ApiPath, AuthUser},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tasks/{id}/messages/read", post(mark_messages_read))
        .route("/me/privacy", get(privacy).put(save_privacy))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct ReadInput {
    /// The newest message read (any message of the conversation).
    pub up_to: Option<Uuid>,
}

/// Records that the caller has read the conversation up to a message. A mark older than the
/// stored one changes nothing. The other party hears `message.read` unless either of them has
/// turned read receipts off.
#[utoipa::path(post, path = "/api/tasks/{id}/messages/read", tag = "payments", params(("id" = Uuid, Path, description = "The task")), request_body = ReadInput, security(("bearer" = [])),
    responses((status = 204), (status = 401), (status = 403), (status = 404), (status = 409), (status = 422)))]
pub async fn mark_messages_read(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(input): ApiJson<ReadInput>,
) -> ApiResult<StatusCode> {
    marketplace::messages::mark_read(&state, id, caller.id, input.up_to).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// What the caller shares with the other party of their tasks.
#[utoipa::path(get, path = "/api/me/privacy", tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = Privacy), (status = 401)))]
pub async fn privacy(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<Privacy>> {
    Ok(ApiJson(receipts::privacy(&state.db, caller.id).await?))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct PrivacyInput {
    pub share_online: Option<bool>,
    pub share_read_receipts: Option<bool>,
}

/// Turns sharing of online state and read receipts on or off; a field left out keeps its
/// setting. Answers the settings now in force. Turning online state off also ends what the
/// other parties' open screens show of it, and what the caller's show of theirs.
#[utoipa::path(put, path = "/api/me/privacy", tag = "auth", request_body = PrivacyInput, security(("bearer" = [])),
    responses((status = 200, body = Privacy), (status = 401), (status = 422)))]
pub async fn save_privacy(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiJson(input): ApiJson<PrivacyInput>,
) -> ApiResult<ApiJson<Privacy>> {
    let current = receipts::privacy(&state.db, caller.id).await?;
    let wanted = Privacy {
        share_online: input.share_online.unwrap_or(current.share_online),
        share_read_receipts: input.share_read_receipts.unwrap_or(current.share_read_receipts),
    };
    receipts::save_privacy(&state.db, caller.id, wanted, Timestamp::now()).await?;
    if current.share_online && !wanted.share_online {
        // Screens open now stop showing it both ways; new ones are refused (`online_access`).
        state.hub.hide_online(&caller.id.to_string()).await;
    }
    Ok(ApiJson(wanted))
}
