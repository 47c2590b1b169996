//! What search engines read: `/robots.txt` (private screens and the API disallowed) and
//! `/sitemap.xml` (the public pages and every open task).

use axum::{
    Router,
    extract::State,
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};

use store::tasks;

use crate::http::{error::ApiResult, state::AppState, web::escape};

/// Screens that are personal, transient or behind sign-in: never worth indexing.
const PRIVATE_PATHS: &[&str] = &[
    "/api/",
    "/admin/",
    "/dev/",
    "/sandbox/",
    "/my-tasks",
    "/notifications",
    "/settings",
    "/account-settings",
    "/profile/",
    "/post-task",
    "/payment-success",
    "/forgot-password",
    "/reset-password",
    "/verify-email",
];

/// The public screens of the route list, most important first.
const PUBLIC_PAGES: &[&str] = &[
    "/",
    "/tasks",
    "/categories",
    "/how-it-works",
    "/become-tasker",
    "/about",
    "/help",
    "/trust",
    "/safety",
    "/covid",
    "/faq",
    "/contact",
    "/terms",
    "/privacy",
    "/cookies",
    "/guidelines",
    "/sitemap",
];

/// The sitemap protocol's limit on URLs in one file.
const SITEMAP_MAX_URLS: usize = 50_000;

pub fn router() -> Router<AppState> {
    Router::new().route("/robots.txt", get(robots)).route("/sitemap.xml", get(sitemap))
}

async fn robots(State(state): State<AppState>) -> Response {
    let mut text = String::from("User-agent: *\nAllow: /\n");
    for path in PRIVATE_PATHS {
        text.push_str(&format!("Disallow: {path}\n"));
    }
    text.push_str(&format!("\nSitemap: {}\n", state.link("/sitemap.xml")));
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=3600")], text)
        .into_response()
}

async fn sitemap(State(state): State<AppState>) -> ApiResult<Response> {
    let open_tasks = tasks::open_task_links(&state.db, (SITEMAP_MAX_URLS - PUBLIC_PAGES.len()) as i64).await?;
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for page in PUBLIC_PAGES {
        xml.push_str(&format!("<url><loc>{}</loc></url>\n", escape(&state.link(page))));
    }
    for task in open_tasks {
        let loc = escape(&state.link(&format!("/task/{}", task.id)));
        xml.push_str(&format!("<url><loc>{loc}</loc><lastmod>{}</lastmod></url>\n", task.updated_at.to_rfc3339()));
    }
    xml.push_str("</urlset>\n");
    Ok((
        [(header::CONTENT_TYPE, "application/xml; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=600")],
        xml,
    )
        .into_response())
}
