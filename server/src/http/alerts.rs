//! `/api/me/alerts`: a signed-in user's task alerts (saved searches). Anyone
//! signed in may keep alerts (the web app offers them to taskers); at most 20
//! each; only their owner sees or changes them (404 for anyone else's). Writes
//! are limited per account (each rewrites index rows under the write lock).

use std::time::Duration;

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, patch},
};
use serde_json::Value;
use uuid::Uuid;

use domain::{
    rate_limit::ALERT_WRITES_PER_ACCOUNT,
    wire::{alerts::AlertView, paging::Items},
};
use model::alerts::{self, AlertDraft, AlertInput, TOO_MANY_ALERTS, index_keys};
use store::db::Timestamp;

use crate::http::{
    error::{ApiError, ApiResult},
    extract::{ApiJson, ApiPath, AuthUser},
    state::AppState,
};

async fn count_write(state: &AppState, caller: AuthUser) -> ApiResult<()> {
    Ok(state.limiter.check(&format!("alert-writes:{}", caller.id), ALERT_WRITES_PER_ACCOUNT).await?)
}

const WEEK: Duration = Duration::from_secs(7 * 24 * 3600);

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/me/alerts", get(list_alerts).post(create_alert))
        .route("/me/alerts/{id}", patch(update_alert).delete(delete_alert))
}

fn week_ago() -> Timestamp {
    Timestamp::now().minus(WEEK)
}

async fn own_alert(state: &AppState, caller: AuthUser, id: Uuid) -> ApiResult<AlertView> {
    store::alerts::alert_of(&state.db, caller.id, id, week_ago())
        .await?
        .map(AlertView::from)
        .ok_or_else(|| ApiError::not_found("Alert"))
}

/// My alerts, oldest first, each with how many tasks it matched this week.
#[utoipa::path(get, path = "/api/me/alerts", tag = "alerts", security(("bearer" = [])),
    responses((status = 200, body = Items<AlertView>), (status = 401)))]
pub async fn list_alerts(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<Items<AlertView>>> {
    let rows = store::alerts::alerts_of(&state.db, caller.id, week_ago()).await?;
    Ok(ApiJson(Items { items: rows.into_iter().map(AlertView::from).collect() }))
}

/// Saves an alert: at least keywords, a category, a place in the service area or remote ok (422);
/// at most 20 per user (409); too many alert writes this hour 429.
#[utoipa::path(post, path = "/api/me/alerts", tag = "alerts", request_body = AlertInput, security(("bearer" = [])),
    responses((status = 201, body = AlertView), (status = 401), (status = 409), (status = 422), (status = 429)))]
pub async fn create_alert(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiJson(input): ApiJson<AlertInput>,
) -> ApiResult<(StatusCode, ApiJson<AlertView>)> {
    count_write(&state, caller).await?;
    let draft = alerts::validate(&input)?;
    let id = store::alerts::create_alert(&state.db, caller.id, &draft, Timestamp::now())
        .await?
        .ok_or_else(|| ApiError::Conflict(TOO_MANY_ALERTS.into()))?;
    Ok((StatusCode::CREATED, ApiJson(own_alert(&state, caller, id).await?)))
}

/// Changes an alert (owner only, else 404): the fields sent replace the stored ones, `null` clears
/// `place` or `min_budget_cents`; the whole result must satisfy the same rules as a new alert.
/// The index is rewritten only when what the alert covers changed (not on a rename or a pause).
#[utoipa::path(patch, path = "/api/me/alerts/{id}", tag = "alerts", request_body = AlertInput,
    params(("id" = Uuid, Path, description = "Alert id")), security(("bearer" = [])),
    responses((status = 200, body = AlertView), (status = 401), (status = 404), (status = 422), (status = 429)))]
pub async fn update_alert(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
    ApiJson(patch): ApiJson<serde_json::Map<String, Value>>,
) -> ApiResult<ApiJson<AlertView>> {
    count_write(&state, caller).await?;
    let current = own_alert(&state, caller, id).await?;
    // What is stored, as stored: an alert saved under older rules must still be renamable.
    let current_draft = AlertDraft {
        name: current.name.clone(),
        q: current.q.clone(),
        categories: current.categories.clone(),
        place: current.place.clone(),
        radius_km: current.radius_km,
        remote_ok: current.remote_ok,
        min_budget_cents: current.min_budget_cents,
        paused: current.paused,
    };
    let mut merged = serde_json::to_value(AlertInput {
        name: Some(current.name),
        q: Some(current.q),
        categories: current.categories,
        place: current.place,
        radius_km: current.radius_km,
        remote_ok: current.remote_ok,
        min_budget_cents: current.min_budget_cents,
        paused: current.paused,
    })
    .map_err(anyhow::Error::from)?;
    if let Some(fields) = merged.as_object_mut() {
        fields.extend(patch);
    }
    let input: AlertInput = serde_json::from_value(merged)
        .map_err(|error| ApiError::BadRequest(format!("The alert could not be read: {error}")))?;
    let draft = alerts::validate(&input)?;
    let reindex = index_keys(&draft) != index_keys(&current_draft);
    if !store::alerts::update_alert(&state.db, caller.id, id, &draft, reindex, Timestamp::now()).await? {
        return Err(ApiError::not_found("Alert"));
    }
    Ok(ApiJson(own_alert(&state, caller, id).await?))
}

/// Deletes an alert (owner only, else 404).
#[utoipa::path(delete, path = "/api/me/alerts/{id}", tag = "alerts",
    params(("id" = Uuid, Path, description = "Alert id")), security(("bearer" = [])),
    responses((status = 204), (status = 401), (status = 404), (status = 429)))]
pub async fn delete_alert(
    State(state): State<AppState>,
    caller: AuthUser,
    ApiPath(id): ApiPath<Uuid>,
) -> ApiResult<StatusCode> {
    count_write(&state, caller).await?;
    if !store::alerts::delete_alert(&state.db, caller.id, id).await? {
        return Err(ApiError::not_found("Alert"));
    }
    Ok(StatusCode::NO_CONTENT)
}
