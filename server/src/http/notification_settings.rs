//! Settings → Notifications: which kinds reach the signed-in user by email and by push.

use std::collections::BTreeMap;

use axum::{Router, extract::State, routing::get};
use serde::Deserialize;

use domain::delivery::preferences::{self, EMAIL, NotificationSettings, PUSH};
use model::states::NotificationKind;
use store::notification_preferences;

use crate::http::{
    error::{ApiError, ApiResult, FieldErrors},
    extract::{ApiJson, AuthUser},
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/me/notification-settings", get(settings).put(save_settings))
}

/// `{email: {kind: bool}, push: {kind: bool}}` with every kind.
#[utoipa::path(get, path = "/api/me/notification-settings", tag = "push", security(("bearer" = [])),
    responses((status = 200, body = NotificationSettings), (status = 401)))]
pub async fn settings(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<NotificationSettings>> {
    Ok(ApiJson(preferences::settings(&state.db, caller.id).await?))
}

/// The same shape as GET; kinds left out keep their setting. Answers the settings now in force.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct SettingsInput {
    email: BTreeMap<String, bool>,
    push: BTreeMap<String, bool>,
}

#[utoipa::path(put, path = "/api/me/notification-settings", tag = "push", request_body = SettingsInput,
    security(("bearer" = [])), responses((status = 200, body = NotificationSettings), (status = 401), (status = 422)))]
pub async fn save_settings(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiJson(input): ApiJson<SettingsInput>,
) -> ApiResult<ApiJson<NotificationSettings>> {
    let mut fields = FieldErrors::new();
    let mut choices = Vec::new();
    for (channel, map) in [(EMAIL, &input.email), (PUSH, &input.push)] {
        for (kind, enabled) in map {
            match NotificationKind::parse(kind) {
                Some(known) => choices.push((channel, known, *enabled)),
                None => {
                    fields.insert(format!("{channel}.{kind}"), format!("Unknown notification type: {kind}"));
                }
            }
        }
    }
    ApiError::check_fields(fields)?;
    notification_preferences::save(&state.db, caller.id, &choices).await?;
    Ok(ApiJson(preferences::settings(&state.db, caller.id).await?))
}
