//! Liveness, readiness and metrics.

use axum::{
    Router,
    extract::State,
    http::{StatusCode, header},
    response::IntoResponse,
    routing::get,
};
use serde_json::json;

use crate::http::{
    error::{ApiError, ApiResult},
    extract::ApiJson,
    state::AppState,
};

pub fn router() -> Router<AppState> {
    Router::new().route("/healthz", get(healthz)).route("/readyz", get(readyz)).route("/metrics", get(metrics))
}

async fn healthz() -> ApiJson<serde_json::Value> {
    ApiJson(json!({ "status": "ok" }))
}

/// 200 when the database (and Redis, when configured) answer, 503 otherwise.
async fn readyz(State(state): State<AppState>) -> ApiResult<ApiJson<serde_json::Value>> {
    if !state.db.ping().await || !state.hub.is_bus_healthy().await {
        return Err(ApiError::Unavailable);
    }
    let bus = if state.config.redis_url.is_some() { "redis" } else { "local" };
    Ok(ApiJson(json!({ "status": "ready", "database": state.db.backend_name(), "bus": bus })))
}

async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (StatusCode::OK, [(header::CONTENT_TYPE, "text/plain; version=0.0.4")], state.metrics.render())
}
