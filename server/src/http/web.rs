//! The built web app (`web/dist`) with single-page-app fallback, and uploaded media.

use std::path::Path;

use axum::{
    Router,
    extract::State,
    http::{HeaderValue, StatusCode, header},
    response::{Html, IntoResponse, Response},
    routing::get,
};
use tower::ServiceBuilder;
use tower_http::{
    services::{ServeDir, ServeFile},
    set_header::SetResponseHeaderLayer,
};

use crate::{
    error::{ApiError, ApiResult},
    http::extract::ApiPath,
    media::content_type_for,
    state::AppState,
};

pub fn media_router() -> Router<AppState> {
    Router::new().route("/media/{*key}", get(media))
}

async fn media(State(state): State<AppState>, ApiPath(key): ApiPath<String>) -> ApiResult<Response> {
    let bytes = state.media.get(&key).await?.ok_or_else(|| ApiError::not_found("File"))?;
    Ok((
        [
            (header::CONTENT_TYPE, content_type_for(&key)),
            // Keys are unique per upload, so the content never changes.
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        bytes,
    )
        .into_response())
}

/// Serves files from `dist`; any other path gets `index.html` so client-side routes work on reload.
/// The service worker (`/sw.js`) is revalidated on every load so a new version reaches browsers at once.
pub fn spa(dist: &Path) -> Router<AppState> {
    let index = dist.join("index.html");
    if index.is_file() {
        let service_worker = ServiceBuilder::new()
            .layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("no-cache")))
            .service(ServeFile::new(dist.join("sw.js")));
        Router::new()
            .route_service("/sw.js", service_worker)
            .fallback_service(ServeDir::new(dist).fallback(ServeFile::new(index)))
    } else {
        tracing::warn!(dist = %dist.display(), "web app not built; serving a placeholder page");
        Router::new().fallback(web_app_missing)
    }
}

async fn web_app_missing() -> impl IntoResponse {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Html(
            "<!doctype html><meta charset=utf-8><title>Taskhub</title><h1>Taskhub</h1>\
             <p>The web app has not been built. Run <code>make run</code> (or <code>npm --prefix web run build</code>).</p>\
             <p>The API is up: see <a href=\"/api/docs\">/api/docs</a>.</p>",
        ),
    )
}
