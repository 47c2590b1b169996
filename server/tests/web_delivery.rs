//! How the web app is delivered: precompressed and cached build files, compressed API JSON,
//! security headers on every kind of page, robots.txt, the sitemap and link previews of tasks.
//! The server serves a small web build made here (a hashed bundle with `.br`/`.gz` siblings), so
//! these tests do not depend on `npm run build`.

use domain::config::Config;

use crate::common;

use std::io::Read;

use common::{
    Backend, TestApp,
    escrow::checkout,
    market::{id, make_offer, post_task, poster, tasker},
};
use reqwest::{StatusCode, header};
use serde_json::{Value, json};

const BUNDLE: &str = "/assets/index-C0ffee42.js";
const INDEX_HTML: &str = r#"<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="Taskhub — post a task, get offers." />
    <title>Taskhub — local help, done right</title>
    <script type="module" crossorigin src="/assets/index-C0ffee42.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
"#;
// The landing pages' copies of index.html that `vite build` writes, each preloading its page's chunks.
const BROWSE_PRELOAD: &str = r#"<link rel="modulepreload" crossorigin href="/assets/browse-tasks-B0b0b0b0.js">"#;
const TASK_PRELOAD: &str = r#"<link rel="modulepreload" crossorigin href="/assets/task-detail-7a5c7a5c.js">"#;
// Stand-ins for the compressed siblings `vite build` writes: which one arrives shows which was chosen.
const BUNDLE_BR: &[u8] = b"brotli bytes of the bundle";
const BUNDLE_GZ: &[u8] = b"gzip bytes of the bundle";

on_both_backends!(config = with_web_build;
    main_bundle_is_sent_precompressed_and_cached_for_a_year,
    index_html_and_service_worker_are_revalidated,
    large_api_json_is_compressed_small_is_not,
    app_api_docs_and_sandbox_pages_forbid_framing,
    robots_txt_is_text_and_keeps_crawlers_out_of_private_pages,
    sitemap_lists_static_pages_and_open_tasks_only,
    shared_task_link_previews_without_javascript,
    browse_and_task_pages_preload_their_own_chunks,
    task_page_carries_the_task_the_app_renders_first,
);

fn with_web_build(config: &mut Config) {
    let dist = config.data_dir.join("web-dist");
    std::fs::create_dir_all(dist.join("assets")).unwrap();
    std::fs::write(dist.join("index.html"), INDEX_HTML).unwrap();
    std::fs::write(dist.join("tasks.html"), INDEX_HTML.replace("</head>", &format!("{BROWSE_PRELOAD}</head>")))
        .unwrap();
    std::fs::write(dist.join("task.html"), INDEX_HTML.replace("</head>", &format!("{TASK_PRELOAD}</head>"))).unwrap();
    std::fs::write(dist.join("sw.js"), "self.addEventListener('push', () => {});").unwrap();
    let bundle = format!("export const app = {:?};\n", "Taskhub ".repeat(4000));
    std::fs::write(dist.join(&BUNDLE[1..]), bundle).unwrap();
    std::fs::write(dist.join(format!("{}.br", &BUNDLE[1..])), BUNDLE_BR).unwrap();
    std::fs::write(dist.join(format!("{}.gz", &BUNDLE[1..])), BUNDLE_GZ).unwrap();
    config.web_dist = dist;
}

async fn get_with(app: &TestApp, path: &str, headers: &[(header::HeaderName, &str)]) -> reqwest::Response {
    let mut request = app.client.get(app.url(path));
    for (name, value) in headers {
        request = request.header(name, *value);
    }
    request.send().await.expect("request sent")
}

fn header_of(response: &reqwest::Response, name: header::HeaderName) -> &str {
    response.headers().get(name).and_then(|value| value.to_str().ok()).unwrap_or("")
}

async fn main_bundle_is_sent_precompressed_and_cached_for_a_year(app: TestApp) -> TestApp {
    let brotli = get_with(&app, BUNDLE, &[(header::ACCEPT_ENCODING, "gzip, deflate, br")]).await;
    assert_eq!(brotli.status(), StatusCode::OK);
    assert_eq!(header_of(&brotli, header::CONTENT_ENCODING), "br");
    assert_eq!(header_of(&brotli, header::CACHE_CONTROL), "public, max-age=31536000, immutable");
    assert!(header_of(&brotli, header::VARY).to_lowercase().contains("accept-encoding"));
    assert!(header_of(&brotli, header::CONTENT_TYPE).contains("javascript"));
    assert_eq!(brotli.bytes().await.unwrap().as_ref(), BUNDLE_BR);

    let gzip = get_with(&app, BUNDLE, &[(header::ACCEPT_ENCODING, "gzip")]).await;
    assert_eq!(header_of(&gzip, header::CONTENT_ENCODING), "gzip");
    assert_eq!(header_of(&gzip, header::CACHE_CONTROL), "public, max-age=31536000, immutable");
    assert_eq!(gzip.bytes().await.unwrap().as_ref(), BUNDLE_GZ);

    let plain = get_with(&app, BUNDLE, &[]).await;
    assert_eq!(header_of(&plain, header::CONTENT_ENCODING), "");
    assert!(plain.text().await.unwrap().starts_with("export const app"));

    // A stale or mistyped asset name is a 404, never the app's page cached for a year.
    let missing = get_with(&app, "/assets/index-0ld0ld00.js", &[(header::ACCEPT_ENCODING, "br")]).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert!(!header_of(&missing, header::CACHE_CONTROL).contains("immutable"));
    app
}

async fn index_html_and_service_worker_are_revalidated(app: TestApp) -> TestApp {
    for path in ["/", "/index.html", "/tasks", "/sw.js"] {
        let response = get_with(&app, path, &[]).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(header_of(&response, header::CACHE_CONTROL), "no-cache", "{path}");
    }
    let first = get_with(&app, "/", &[]).await;
    let last_modified = header_of(&first, header::LAST_MODIFIED).to_owned();
    assert!(!last_modified.is_empty());
    assert!(first.text().await.unwrap().contains("<div id=\"root\">"));
    let again = get_with(&app, "/", &[(header::IF_MODIFIED_SINCE, &last_modified)]).await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    app
}

async fn large_api_json_is_compressed_small_is_not(app: TestApp) -> TestApp {
    let brotli = get_with(&app, "/api/openapi.json", &[(header::ACCEPT_ENCODING, "br, gzip")]).await;
    assert_eq!(brotli.status(), StatusCode::OK);
    assert_eq!(header_of(&brotli, header::CONTENT_ENCODING), "br");
    assert!(header_of(&brotli, header::VARY).to_lowercase().contains("accept-encoding"));

    let gzip = get_with(&app, "/api/openapi.json", &[(header::ACCEPT_ENCODING, "gzip")]).await;
    assert_eq!(header_of(&gzip, header::CONTENT_ENCODING), "gzip");
    let compressed = gzip.bytes().await.unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(compressed.as_ref()).read_to_string(&mut text).unwrap();
    let document: Value = serde_json::from_str(&text).unwrap();
    assert!(document["paths"]["/api/tasks"].is_object());
    assert!(compressed.len() * 3 < text.len(), "gzip shrinks JSON well: {} of {}", compressed.len(), text.len());

    // Below the threshold the bytes are sent as they are.
    let small = get_with(&app, "/healthz", &[(header::ACCEPT_ENCODING, "br, gzip")]).await;
    assert_eq!(small.status(), StatusCode::OK);
    assert_eq!(header_of(&small, header::CONTENT_ENCODING), "");
    app
}

async fn app_api_docs_and_sandbox_pages_forbid_framing(app: TestApp) -> TestApp {
    let poster_token = poster(&app, "csp-poster@example.com").await;
    let tasker_token = tasker(&app, "csp-tasker@example.com").await;
    let task = id(&post_task(&app, &poster_token, json!({})).await);
    let offer = id(&make_offer(&app, &tasker_token, &task, 9000).await);
    let (_, checkout_url) = checkout(&app, &poster_token, &task, &offer).await;
    let checkout_path = checkout_url.split_once("/sandbox/").map(|(_, rest)| format!("/sandbox/{rest}")).unwrap();

    for path in ["/", "/task/whatever", "/api/categories", "/api/docs", checkout_path.as_str(), "/robots.txt"] {
        let response = get_with(&app, path, &[]).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let policy = header_of(&response, header::CONTENT_SECURITY_POLICY);
        assert!(policy.contains("frame-ancestors 'none'"), "{path}: {policy}");
        assert!(!policy.contains("unsafe-inline"), "{path}: {policy}");
        assert!(policy.contains("default-src 'self'"), "{path}: {policy}");
        assert_eq!(header_of(&response, header::X_FRAME_OPTIONS), "DENY", "{path}");
        assert_eq!(header_of(&response, "cross-origin-opener-policy".parse().unwrap()), "same-origin", "{path}");
        assert!(!header_of(&response, "permissions-policy".parse().unwrap()).is_empty(), "{path}");
        // Only behind https does the server ask browsers to insist on it.
        assert_eq!(header_of(&response, header::STRICT_TRANSPORT_SECURITY), "", "{path}");
    }
    // Pages with an inline style or script allow exactly those, by hash.
    for path in ["/api/docs", checkout_path.as_str()] {
        let response = get_with(&app, path, &[]).await;
        let policy = header_of(&response, header::CONTENT_SECURITY_POLICY).to_owned();
        let html = response.text().await.unwrap();
        let style = between(&html, "<style>", "</style>");
        assert!(policy.contains(&format!("style-src 'self' 'sha256-{}'", sha256_base64(style))), "{path}: {policy}");
        if html.contains("<script>") {
            let script = between(&html, "<script>", "</script>");
            assert!(policy.contains(&format!("script-src 'self' 'sha256-{}'", sha256_base64(script))), "{policy}");
        }
    }
    let app_policy = header_of(&get_with(&app, "/", &[]).await, header::CONTENT_SECURITY_POLICY).to_owned();
    assert!(app_policy.contains("script-src 'self';"), "{app_policy}");
    app
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).unwrap() + start.len();
    &text[from..from + text[from..].find(end).unwrap()]
}

fn sha256_base64(text: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text.as_bytes()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_deployments_send_strict_transport_security() {
    let https = |config: &mut Config| {
        with_web_build(config);
        config.public_url = Some("https://taskhub.example".into());
    };
    common::run(Backend::Sqlite, https, |app| async move {
        for path in ["/", "/api/categories"] {
            let response = get_with(&app, path, &[]).await;
            assert_eq!(header_of(&response, header::STRICT_TRANSPORT_SECURITY), "max-age=63072000; includeSubDomains");
            let policy = header_of(&response, header::CONTENT_SECURITY_POLICY);
            assert!(policy.contains("connect-src 'self' wss://taskhub.example;"), "{policy}");
        }
        app
    })
    .await;
}

async fn robots_txt_is_text_and_keeps_crawlers_out_of_private_pages(app: TestApp) -> TestApp {
    let response = get_with(&app, "/robots.txt", &[]).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(header_of(&response, header::CONTENT_TYPE).starts_with("text/plain"));
    let text = response.text().await.unwrap();
    assert!(text.starts_with("User-agent: *\n"), "{text}");
    for private in ["/api/", "/my-tasks", "/notifications", "/settings", "/profile/", "/payment-success"] {
        assert!(text.lines().any(|line| line == format!("Disallow: {private}")), "{private} in {text}");
    }
    assert!(!text.lines().any(|line| line == "Disallow: /tasks" || line == "Disallow: /task/"), "{text}");
    assert!(text.contains(&format!("Sitemap: {}/sitemap.xml", app.server.url())), "{text}");
    app
}

async fn sitemap_lists_static_pages_and_open_tasks_only(app: TestApp) -> TestApp {
    let token = poster(&app, "sitemap-poster@example.com").await;
    let open = id(&post_task(&app, &token, json!({ "title": "Hang three shelves" })).await);
    let cancelled = id(&post_task(&app, &token, json!({ "title": "Mow the lawn" })).await);
    let response = app.post(&format!("/api/tasks/{cancelled}/cancel"), Some(&token), json!({})).await;
    assert_eq!(response.status, StatusCode::OK, "{:?}", response.body);

    let response = get_with(&app, "/sitemap.xml", &[]).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(header_of(&response, header::CONTENT_TYPE).starts_with("application/xml"));
    let xml = response.text().await.unwrap();
    let base = app.server.url();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"), "{xml}");
    assert!(xml.contains("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"), "{xml}");
    for page in ["/", "/tasks", "/how-it-works", "/categories", "/faq"] {
        assert!(xml.contains(&format!("<url><loc>{base}{page}</loc></url>")), "{page} in {xml}");
    }
    assert!(xml.contains(&format!("<loc>{base}/task/{open}</loc><lastmod>")), "{xml}");
    assert!(!xml.contains(&cancelled), "{xml}");
    assert!(!xml.contains("/my-tasks"), "{xml}");
    app
}

async fn shared_task_link_previews_without_javascript(app: TestApp) -> TestApp {
    let token = poster(&app, "preview-poster@example.com").await;
    let task = post_task(
        &app,
        &token,
        json!({
            "title": "Fix a \"leaky\" tap <now>",
            "description": "The kitchen tap drips all night & the washer needs replacing.",
            "location": "Fitzroy VIC",
            "budget_cents": 25000,
        }),
    )
    .await;
    let task_id = id(&task);

    // Fetched as a chat app's link preview does: plain GET, no JavaScript.
    let response = get_with(&app, &format!("/task/{task_id}"), &[]).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(header_of(&response, header::CONTENT_TYPE).starts_with("text/html"));
    assert_eq!(header_of(&response, header::CACHE_CONTROL), "no-cache");
    let etag = header_of(&response, header::ETAG).to_owned();
    let html = response.text().await.unwrap();
    let title = "Fix a &quot;leaky&quot; tap &lt;now&gt; · Taskhub";
    let description = "$250.00 AUD · Fitzroy VIC · The kitchen tap drips all night &amp; the washer needs replacing.";
    let url = format!("{}/task/{task_id}", app.server.url());
    assert!(html.contains(&format!("<title>{title}</title>")), "{html}");
    assert!(html.contains(&format!("<meta name=\"description\" content=\"{description}\" />")), "{html}");
    assert!(html.contains(&format!("<meta property=\"og:title\" content=\"{title}\" />")), "{html}");
    assert!(html.contains(&format!("<meta property=\"og:description\" content=\"{description}\" />")), "{html}");
    assert!(html.contains(&format!("<meta property=\"og:url\" content=\"{url}\" />")), "{html}");
    assert!(html.contains("<meta property=\"og:type\" content=\"website\" />"), "{html}");
    assert!(html.contains("<meta name=\"twitter:card\" content=\"summary\" />"), "{html}");
    assert!(!html.contains("<now>") && !html.contains("Taskhub — local help"), "{html}");
    assert_eq!(html.matches("<title>").count(), 1);
    // The app itself still loads.
    assert!(html.contains(&format!("src=\"{BUNDLE}\"")));

    let again = get_with(&app, &format!("/task/{task_id}"), &[(header::IF_NONE_MATCH, &etag)]).await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);

    // Unknown and malformed ids get the plain app page; the app shows its not-found screen.
    for path in ["/task/0190f7a4-0000-7000-8000-000000000000", "/task/not-a-task"] {
        let response = get_with(&app, path, &[]).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let html = response.text().await.unwrap();
        assert!(html.contains("<title>Taskhub — local help, done right</title>"), "{path}: {html}");
        assert!(!html.contains("og:title"), "{path}");
    }
    app
}

async fn browse_and_task_pages_preload_their_own_chunks(app: TestApp) -> TestApp {
    let token = poster(&app, "preload-poster@example.com").await;
    let task = post_task(
        &app,
        &token,
        json!({ "title": "Hang three pictures", "description": "Plaster walls, hooks supplied.", "location": "Carlton VIC", "budget_cents": 6000 }),
    )
    .await;
    let task_id = id(&task);

    for path in ["/tasks", "/tasks?q=tap&sort=newest"] {
        let response = get_with(&app, path, &[]).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(header_of(&response, header::CACHE_CONTROL), "no-cache", "{path}");
        assert!(!header_of(&response, header::LAST_MODIFIED).is_empty(), "{path}");
        let html = response.text().await.unwrap();
        assert!(html.contains(BROWSE_PRELOAD) && !html.contains(TASK_PRELOAD), "{path}: {html}");
    }
    for path in [format!("/task/{task_id}"), "/task/not-a-task".to_owned()] {
        let html = get_with(&app, &path, &[]).await.text().await.unwrap();
        assert!(html.contains(TASK_PRELOAD) && !html.contains(BROWSE_PRELOAD), "{path}: {html}");
    }
    assert!(get_with(&app, &format!("/task/{task_id}"), &[]).await.text().await.unwrap().contains("og:title"));
    // Every other page is the plain app page.
    for path in ["/", "/post-task", "/tasks/unknown"] {
        let html = get_with(&app, path, &[]).await.text().await.unwrap();
        assert!(!html.contains("modulepreload"), "{path}: {html}");
    }
    app
}

/// The task page carries the task as `GET /api/tasks/{id}` would return it, so the app renders it
/// without waiting for an API round trip; text that could close the script element is escaped.
async fn task_page_carries_the_task_the_app_renders_first(app: TestApp) -> TestApp {
    let token = poster(&app, "embed-poster@example.com").await;
    let hostile = "Fix a tap </script><script>alert(1)</script> & <!-- more";
    let task = post_task(
        &app,
        &token,
        json!({ "title": hostile, "description": "Line one\u{2028}line two </SCRIPT> done.", "location": "Carlton VIC", "budget_cents": 9000 }),
    )
    .await;
    let task_id = id(&task);
    let tasker_token = tasker(&app, "embed-tasker@example.com").await;
    make_offer(&app, &tasker_token, &task_id, 8500).await;

    let html = get_with(&app, &format!("/task/{task_id}"), &[]).await.text().await.unwrap();
    let embedded = embedded_task(&html).unwrap_or_else(|| panic!("no embedded task in {html}"));
    assert!(!html.contains("<script>alert(1)") && !html.to_lowercase().contains("</script> done"), "{html}");
    let api = app.get(&format!("/api/tasks/{task_id}"), None).await.body;
    let without_views = |mut task: Value| {
        task.as_object_mut().unwrap().remove("view_count");
        task
    };
    assert_eq!(embedded["title"], hostile);
    assert_eq!(embedded["offer_count"], 1);
    assert_eq!(without_views(embedded), without_views(api));

    // Unknown and malformed ids carry nothing: the app asks the API and shows its not-found screen.
    for path in ["/task/0190f7a4-0000-7000-8000-000000000000", "/task/not-a-task"] {
        let html = get_with(&app, path, &[]).await.text().await.unwrap();
        assert!(embedded_task(&html).is_none() && !html.contains("task-data"), "{path}: {html}");
    }
    app
}

fn embedded_task(html: &str) -> Option<Value> {
    const START: &str = r#"<script type="application/json" id="task-data">"#;
    let from = html.find(START)? + START.len();
    let length = html[from..].find("</script>")?;
    Some(serde_json::from_str(&html[from..from + length]).expect("embedded task is JSON"))
}
