//! The built web app (`web/dist`) with single-page-app fallback, and uploaded media.

use std::{path::Path, sync::Arc};

use axum::{
    Extension, Router,
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode, header},
    middleware::map_response,
    response::{Html, IntoResponse, Response},
    routing::get,
};
use sha2::{Digest, Sha256};
use tower::ServiceBuilder;
use tower_http::{
    services::{ServeDir, ServeFile, fs::ServeFileSystemResponseBody},
    set_header::SetResponseHeaderLayer,
};
use uuid::Uuid;

use domain::{
    marketplace,
    media::{
        content_type_for,
        photos::{PhotoKey, is_public_key, task_photo_of_key},
    },
    wire::marketplace::TaskDetail,
};
use model::payments::fees::display_amount;
use store::tasks::{self, TaskRow};

use crate::http::{
    error::{ApiError, ApiResult},
    extract::ApiPath,
    state::AppState,
    tasks::detail_as_shown,
};

pub fn media_router() -> Router<AppState> {
    Router::new().route("/media/{*key}", get(media))
}

async fn media(State(state): State<AppState>, ApiPath(key): ApiPath<String>) -> ApiResult<Response> {
    // Message photos are served only to the task's two parties, by their own route.
    if !is_public_key(&key) {
        return Err(ApiError::not_found("File"));
    }
    let task_photo = task_photo_of_key(&key);
    if let Some(photo_id) = task_photo
        && !marketplace::task_photos::is_shown(&state, photo_id).await?
    {
        return Err(ApiError::not_found("File"));
    }
    let bytes = state.media.get(&key).await?.ok_or_else(|| ApiError::not_found("File"))?;
    // Keys are unique per upload, so the content never changes; but a task photo goes when its
    // task is removed, so caches hold it for minutes only.
    let cache = if task_photo.is_some() { "public, max-age=300" } else { "public, max-age=31536000, immutable" };
    Ok((
        [
            (header::CONTENT_TYPE, content_type_for(&key)),
            (header::CACHE_CONTROL, cache),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        bytes,
    )
        .into_response())
}

/// Serves files from `dist`; any other path gets `index.html` so client-side routes work on reload.
/// Hashed build output under `/assets` is cached for a year (a new build has new names); the
/// rest (`index.html`, the service worker, icons) is revalidated on every use. Files are sent
/// precompressed (`.br`/`.gz` written next to them by `vite build`) when the browser accepts it.
/// A task's page carries its title, budget and location in the HTML, for link previews.
///
/// The pages people most often land on (browse from search results, a task from a shared link)
/// get their own copy of `index.html`, written by `vite build` as `tasks.html` and `task.html`,
/// that also preloads the page's chunks: they download with the app's entry instead of after it.
pub fn spa(dist: &Path) -> Router<AppState> {
    let index_path = dist.join("index.html");
    let Ok(index_html) = std::fs::read_to_string(&index_path) else {
        tracing::warn!(dist = %dist.display(), "web app not built; serving a placeholder page");
        return Router::new().fallback(web_app_missing);
    };
    let task_html = std::fs::read_to_string(dist.join("task.html")).unwrap_or(index_html);
    let mut browse_path = dist.join("tasks.html");
    if !browse_path.exists() {
        browse_path = index_path.clone();
    }
    let browse = ServeFile::new(browse_path).precompressed_br().precompressed_gzip();
    let assets = ServeDir::new(dist.join("assets")).precompressed_br().precompressed_gzip();
    let files = ServeDir::new(dist)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(ServeFile::new(index_path).precompressed_br().precompressed_gzip());
    Router::new()
        .route_service("/tasks", browse)
        .route("/task/{id}", get(task_page).layer(Extension(IndexHtml(Arc::from(task_html)))))
        .nest_service("/assets", ServiceBuilder::new().layer(map_response(cache_forever_if_found)).service(assets))
        .fallback_service(files)
        .layer(SetResponseHeaderLayer::if_not_present(header::CACHE_CONTROL, HeaderValue::from_static("no-cache")))
        // Which file is sent depends on Accept-Encoding, so shared caches must key on it.
        .layer(SetResponseHeaderLayer::if_not_present(header::VARY, HeaderValue::from_static("accept-encoding")))
}

async fn cache_forever_if_found(
    mut response: Response<ServeFileSystemResponseBody>,
) -> Response<ServeFileSystemResponseBody> {
    if response.status().is_success() || response.status() == StatusCode::NOT_MODIFIED {
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=31536000, immutable"));
    }
    response
}

/// The task page's `index.html` (`task.html`), read once at start-up.
#[derive(Clone)]
struct IndexHtml(Arc<str>);

/// `/task/{id}`: the app's page with the task's title, description and Open Graph tags, so a
/// shared link previews without running JavaScript, and the task itself for the app's first
/// render. An unknown task, or one a moderator removed, gets the plain page (the app shows its
/// not-found or removed screen). Revalidated
/// by ETag, as the task can change.
async fn task_page(
    State(state): State<AppState>,
    Extension(IndexHtml(index)): Extension<IndexHtml>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let task = match Uuid::parse_str(&id) {
        Ok(id) => tasks::task(&state.db, id).await?,
        Err(_) => None,
    };
    let html = match task {
        Some(task) if task.status != model::states::TaskStatus::Removed => {
            let image = task.first_photo_id.map(|id| state.link(&PhotoKey::Task(id).public_url()));
            let html = with_task_preview(&index, &state.link(&format!("/task/{}", task.id)), &task, image.as_deref());
            with_embedded_task(&html, &detail_as_shown(&state, task, false).await?)?
        }
        _ => index.to_string(),
    };
    // Weak: the same page is sent with different content encodings.
    let etag = format!("W/\"{}\"", hex::encode(&Sha256::digest(html.as_bytes())[..16]));
    let fresh = headers.get(header::IF_NONE_MATCH).and_then(|value| value.to_str().ok()) == Some(etag.as_str());
    let headers = [(header::ETAG, etag), (header::CACHE_CONTROL, "no-cache".to_owned())];
    if fresh {
        return Ok((StatusCode::NOT_MODIFIED, headers).into_response());
    }
    Ok((headers, Html(html)).into_response())
}

/// Writes the task into the page head: `<title>`, the meta description, Open Graph and Twitter
/// card, with the task's first photo (`image`, an absolute URL) as the preview picture.
fn with_task_preview(index: &str, url: &str, task: &TaskRow, image: Option<&str>) -> String {
    let title = format!("{} · Taskhub", task.title);
    let summary = format!(
        "{} · {} · {}",
        display_amount(task.budget_cents, &task.currency),
        task.location,
        shortened(&task.description, 160)
    );
    let (title, summary, url) = (escape(&title), escape(&summary), escape(url));
    let (card, image_tag) = match image {
        Some(image) => {
            ("summary_large_image", format!("<meta property=\"og:image\" content=\"{}\" />\n", escape(image)))
        }
        None => ("summary", String::new()),
    };
    let tags = format!(
        "<meta property=\"og:type\" content=\"website\" />\n\
         <meta property=\"og:site_name\" content=\"Taskhub\" />\n\
         <meta property=\"og:title\" content=\"{title}\" />\n\
         <meta property=\"og:description\" content=\"{summary}\" />\n\
         <meta property=\"og:url\" content=\"{url}\" />\n\
         {image_tag}\
         <meta name=\"twitter:card\" content=\"{card}\" />\n\
         <link rel=\"canonical\" href=\"{url}\" />\n"
    );
    let html = replace_element(index, "<title>", "</title>", &format!("<title>{title}</title>"));
    let html = replace_element(
        &html,
        "<meta name=\"description\"",
        ">",
        &format!("<meta name=\"description\" content=\"{summary}\" />"),
    );
    html.replacen("</head>", &format!("{tags}</head>"), 1)
}

/// Writes the task, as the API shows it, into the page as a JSON data block (`#task-data`) that the
/// app renders first instead of waiting for the API: on a shared link, the task is the page's main
/// content. `<`, `>` and `&` are escaped as JSON `\u` escapes, so no text can end the element.
fn with_embedded_task(html: &str, task: &TaskDetail) -> ApiResult<String> {
    let json = serde_json::to_string(task)
        .map_err(anyhow::Error::from)?
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let script = format!("<script type=\"application/json\" id=\"task-data\">{json}</script>\n");
    Ok(html.replacen("</head>", &format!("{script}</head>"), 1))
}

/// `html` with the first element running from `start` to `end` (inclusive) replaced; unchanged if absent.
fn replace_element(html: &str, start: &str, end: &str, replacement: &str) -> String {
    let Some(from) = html.find(start) else { return html.to_owned() };
    let Some(length) = html[from..].find(end) else { return html.to_owned() };
    format!("{}{replacement}{}", &html[..from], &html[from + length + end.len()..])
}

/// At most `max` characters of `text` on one line, with an ellipsis when cut.
fn shortened(text: &str, max: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= max {
        return line;
    }
    let cut: String = line.chars().take(max - 1).collect();
    format!("{}…", cut.trim_end())
}

/// Escapes text for an HTML (or XML) text node or quoted attribute.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
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
