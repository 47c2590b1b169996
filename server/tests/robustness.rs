//! Bad input never gets a 500: malformed bodies, wrong content types, huge
//! bodies, unknown routes, hostile uploads, floods — plus health and docs, and
//! writes that finish even when their client gives up.

use crate::common;

use std::io::Cursor;

use common::{
    Backend, TestApp, access_token,
    live::{connect, next_event, subscribe},
    market::{id, post_task},
};
use reqwest::{StatusCode, header, multipart};
use serde_json::json;

on_both_backends!(
    malformed_and_mistyped_bodies_get_the_error_shape,
    unknown_routes_and_methods_get_the_error_shape,
    avatars_are_checked_by_content_and_reencoded,
    health_metrics_and_openapi_answer,
    a_write_whose_client_gave_up_still_commits_and_publishes,
    shutdown_stops_every_worker_before_closing_the_pool,
);

async fn malformed_and_mistyped_bodies_get_the_error_shape(app: TestApp) -> TestApp {
    let url = app.url("/api/auth/login");
    let malformed = app
        .client
        .post(&url)
        .header(header::CONTENT_TYPE, "application/json")
        .body("{\"email\":")
        .send()
        .await
        .unwrap();
    let malformed = TestApp::read(malformed).await;
    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    assert_eq!(malformed.error_code(), "bad_request");

    let plain = app.client.post(&url).header(header::CONTENT_TYPE, "text/plain").body("email=a").send().await.unwrap();
    let plain = TestApp::read(plain).await;
    assert_eq!(plain.status, StatusCode::BAD_REQUEST);
    assert_eq!(plain.error_code(), "bad_request");

    let huge = format!("{{\"email\":\"{}\"}}", "a".repeat(2 * 1024 * 1024));
    // The server answers 413 without reading the rest and closes that connection, so a
    // client of its own keeps the shared client's pool free of it.
    let huge = reqwest::Client::new()
        .post(&url)
        .header(header::CONTENT_TYPE, "application/json")
        .body(huge)
        .send()
        .await
        .unwrap();
    let huge = TestApp::read(huge).await;
    assert_eq!(huge.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(huge.error_code(), "payload_too_large");

    // Routes that read the raw body (logout, the Stripe webhook) answer a huge one in the same shape.
    for path in ["/api/auth/logout", "/api/payments/webhook"] {
        let huge = reqwest::Client::new()
            .post(app.url(path))
            .header(header::CONTENT_TYPE, "application/json")
            .body(vec![b' '; 2 * 1024 * 1024])
            .send()
            .await
            .unwrap();
        let huge = TestApp::read(huge).await;
        assert_eq!(huge.status, StatusCode::PAYLOAD_TOO_LARGE, "{path}");
        assert_eq!(huge.error_code(), "payload_too_large", "{path}: {:?}", huge.body);
    }

    let array = app.post("/api/auth/signup", None, json!([1, 2, 3])).await;
    assert_eq!(array.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(array.error_code(), "validation_failed");

    // Bytes that HTTP allows in a header value (obs-text) but that are no token, nor even UTF-8.
    let garbage = header::HeaderValue::from_bytes(b"Bearer \xff\xfe\x80garbage").unwrap();
    let garbage_auth = app.client.get(app.url("/api/me")).header(header::AUTHORIZATION, garbage).send().await.unwrap();
    let garbage_auth = TestApp::read(garbage_auth).await;
    assert_eq!(garbage_auth.status, StatusCode::UNAUTHORIZED, "{:?}", garbage_auth.body);
    assert_eq!(garbage_auth.error_code(), "unauthorized");
    // A control character is not HTTP at all: written straight to the socket (no client would
    // send it), the server refuses the request without reaching the app, and keeps serving.
    let raw = raw_request(
        &app,
        b"GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \x01\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(raw.starts_with("HTTP/1.1 400"), "{raw}");
    let raw = raw_request(
        &app,
        b"GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a.b.c\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(raw.starts_with("HTTP/1.1 401"), "{raw}");
    assert!(raw.contains("\"unauthorized\""), "{raw}");
    let basic =
        app.client.get(app.url("/api/me")).header(header::AUTHORIZATION, "Basic dXNlcjpwYXNz").send().await.unwrap();
    assert_eq!(basic.status(), StatusCode::UNAUTHORIZED);
    app
}

/// Writes `request` to a fresh connection and returns everything the server answers.
async fn raw_request(app: &TestApp, request: &[u8]) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(app.server.addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(std::time::Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("the server answers and closes")
        .unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

async fn unknown_routes_and_methods_get_the_error_shape(app: TestApp) -> TestApp {
    let missing = app.get("/api/no-such-thing", None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.error_code(), "not_found");
    let wrong_method = app.get("/api/auth/login", None).await;
    assert_eq!(wrong_method.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(wrong_method.error_code(), "method_not_allowed");
    let missing_media = app.get("/media/avatars/nope.jpg", None).await;
    assert_eq!(missing_media.status, StatusCode::NOT_FOUND);
    let traversal = app.get("/media/..%2F..%2Fetc%2Fpasswd", None).await;
    assert_eq!(traversal.status, StatusCode::NOT_FOUND);
    app
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbaImage::from_pixel(width, height, image::Rgba([200, 30, 90, 255]));
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

async fn upload(app: &TestApp, token: Option<&str>, path: &str, bytes: Vec<u8>, name: &str) -> common::Response {
    let form = multipart::Form::new().part("file", multipart::Part::bytes(bytes).file_name(name.to_owned()));
    // A client per upload: after a 413 the server closes the connection without reading the
    // body, and a pooled client could send its next request down that dead connection.
    let mut request = reqwest::Client::new().post(app.url(path)).multipart(form);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    TestApp::read(request.send().await.unwrap()).await
}

async fn avatars_are_checked_by_content_and_reencoded(app: TestApp) -> TestApp {
    let session = app.signed_in_user("avatar@example.com").await;
    let token = access_token(&session);

    let accepted = upload(&app, Some(&token), "/api/me/avatar", png(800, 600), "me.png").await;
    assert_eq!(accepted.status, StatusCode::OK, "{:?}", accepted.body);
    let url = accepted.body["avatar_url"].as_str().unwrap().to_owned();
    assert!(url.starts_with("/media/avatars/") && url.ends_with(".jpg"));
    let served = app.client.get(app.url(&url)).send().await.unwrap();
    assert_eq!(served.headers()[header::CONTENT_TYPE], "image/jpeg");
    let bytes = served.bytes().await.unwrap();
    let decoded = image::load_from_memory(&bytes).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (512, 512));
    assert_eq!(app.get("/api/me", Some(&token)).await.body["profile"]["avatar_url"], url);

    let script = upload(&app, Some(&token), "/api/me/avatar", b"<script>alert(1)</script>".to_vec(), "evil.png").await;
    assert_eq!(script.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(script.error_code(), "validation_failed");

    let mut polyglot = png(64, 64);
    polyglot.extend_from_slice(b"<script>alert(1)</script>");
    let cleaned = upload(&app, Some(&token), "/api/me/avatar", polyglot, "poly.png").await;
    assert_eq!(cleaned.status, StatusCode::OK);
    let stored = app
        .client
        .get(app.url(cleaned.body["avatar_url"].as_str().unwrap()))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert!(!stored.windows(8).any(|window| window == b"<script>"), "the appended payload is gone");

    // Past the route's body limit (the image limit plus 64 KiB of framing) by 16 KiB: the server
    // answers 413 as soon as it has read past the limit and closes without reading the rest. A
    // client still writing a body far beyond it can meet the reset before it reads the answer
    // (hyper does not drain an unread body); 16 KiB fit in the kernel's buffers, so this client
    // has written all of it by then and reads the 413.
    let mut oversized = png(32, 32);
    oversized.resize(domain::media::MAX_AVATAR_BYTES + 80 * 1024, 0);
    let too_big = upload(&app, Some(&token), "/api/me/avatar", oversized, "big.png").await;
    assert_eq!(too_big.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(too_big.error_code(), "payload_too_large");

    let wrong_field = app
        .client
        .post(app.url("/api/me/avatar"))
        .bearer_auth(&token)
        .multipart(multipart::Form::new().text("other", "x"))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_field.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let not_multipart = app.post("/api/me/avatar", Some(&token), json!({ "file": "x" })).await;
    assert_eq!(not_multipart.status, StatusCode::BAD_REQUEST);
    assert_eq!(not_multipart.error_code(), "bad_request", "{:?}", not_multipart.body);
    let no_boundary = app
        .client
        .post(app.url("/api/uploads/avatar"))
        .header(header::CONTENT_TYPE, "multipart/form-data")
        .body("file=x")
        .send()
        .await
        .unwrap();
    let no_boundary = TestApp::read(no_boundary).await;
    assert_eq!(no_boundary.status, StatusCode::BAD_REQUEST);
    assert_eq!(no_boundary.error_code(), "bad_request", "{:?}", no_boundary.body);
    assert_eq!(upload(&app, None, "/api/me/avatar", png(8, 8), "a.png").await.status, StatusCode::UNAUTHORIZED);

    // The sign-up picture: uploaded anonymously, then named in the sign-up.
    let signup_picture = upload(&app, None, "/api/uploads/avatar", png(300, 300), "new.png").await;
    assert_eq!(signup_picture.status, StatusCode::CREATED);
    let mut body = common::signup_body("pictured@example.com", "customer");
    body["avatar_url"] = signup_picture.body["avatar_url"].clone();
    assert_eq!(app.post("/api/auth/signup", None, body).await.status, StatusCode::CREATED);
    app
}

async fn health_metrics_and_openapi_answer(app: TestApp) -> TestApp {
    assert_eq!(app.get("/healthz", None).await.status, StatusCode::OK);
    let ready = app.get("/readyz", None).await;
    assert_eq!(ready.status, StatusCode::OK);
    assert_eq!(ready.body["database"], if app.backend == Backend::Sqlite { "sqlite" } else { "postgres" });
    app.get("/api/me", None).await;
    let metrics = app.client.get(app.url("/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(metrics.contains("http_requests_total"), "{metrics}");
    let openapi = app.get("/api/openapi.json", None).await;
    assert_eq!(openapi.status, StatusCode::OK);
    assert!(openapi.body["paths"]["/api/auth/signup"]["post"].is_object());
    let docs = app.client.get(app.url("/api/docs")).send().await.unwrap();
    assert!(docs.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/html"));
    app
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn floods_of_logins_are_rate_limited_with_retry_after() {
    common::run(
        Backend::Sqlite,
        |config| config.auth_rate_limit_per_minute = 3,
        |app| async move {
            for _ in 0..3 {
                let attempt = app
                    .post("/api/auth/login", None, json!({ "email": "flood@example.com", "password": "guess" }))
                    .await;
                assert_eq!(attempt.status, StatusCode::UNAUTHORIZED);
            }
            let refused =
                app.post("/api/auth/login", None, json!({ "email": "flood@example.com", "password": "guess" })).await;
            assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
            assert_eq!(refused.error_code(), "rate_limited");
            let retry_after: u64 = refused.headers[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
            assert!((1..=60).contains(&retry_after));
            app
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_app_is_served_with_a_single_page_fallback() {
    common::run(
        Backend::Sqlite,
        |config| {
            let dist = config.data_dir.join("dist");
            std::fs::create_dir_all(dist.join("assets")).unwrap();
            std::fs::write(dist.join("index.html"), "<!doctype html><title>Taskhub</title><div id=root></div>")
                .unwrap();
            std::fs::write(dist.join("assets/app.js"), "console.log('hi')").unwrap();
            config.web_dist = dist;
        },
        |app| async move {
            for path in ["/", "/tasks?q=paint", "/task/123", "/settings"] {
                let page = app.client.get(app.url(path)).send().await.unwrap();
                assert_eq!(page.status(), StatusCode::OK, "{path}");
                assert!(page.text().await.unwrap().contains("<div id=root>"), "{path}");
            }
            let script = app.client.get(app.url("/assets/app.js")).send().await.unwrap();
            assert!(script.headers()[header::CONTENT_TYPE].to_str().unwrap().contains("javascript"));
            let api = app.get("/api/tasks-typo", None).await;
            assert_eq!(api.status, StatusCode::NOT_FOUND);
            assert_eq!(api.error_code(), "not_found");
            app
        },
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_limits_apply_to_the_forwarded_client() {
    common::run(
        Backend::Sqlite,
        |config| {
            config.auth_rate_limit_per_minute = 2;
            config.trust_proxy = true;
            // An outer proxy writes the client, the inner one (10.9.9.9) its own hop.
            config.trusted_proxy_count = 2;
        },
        |app| async move {
            let login = |client: &'static str, email: &'static str| {
                let request = app
                    .client
                    .post(app.url("/api/auth/login"))
                    .header("x-forwarded-for", format!("{client}, 10.9.9.9"))
                    .json(&json!({ "email": email, "password": "guess" }));
                async move { request.send().await.unwrap().status() }
            };
            assert_eq!(login("203.0.113.1", "a@example.com").await, StatusCode::UNAUTHORIZED);
            assert_eq!(login("203.0.113.1", "a@example.com").await, StatusCode::UNAUTHORIZED);
            assert_eq!(login("203.0.113.1", "a@example.com").await, StatusCode::TOO_MANY_REQUESTS);
            // Another client behind the same proxies keeps its own budget.
            assert_eq!(login("203.0.113.2", "a@example.com").await, StatusCode::UNAUTHORIZED);
            app
        },
    )
    .await;
}

/// A write must not stop between its commit and what follows it (the live events, the
/// notification's push) because its client went away: the soak saw an offer committed during a
/// database restart whose client had timed out, and its poster never heard of it. Here the
/// database is held so the offer waits, the client gives up, then the database is released.
async fn a_write_whose_client_gave_up_still_commits_and_publishes(app: TestApp) -> TestApp {
    let poster_session = app.signed_in_user("poster@example.com").await;
    let poster = access_token(&poster_session);
    let poster_id = poster_session["user"]["id"].as_str().unwrap().to_owned();
    let tasker = access_token(&app.signed_in_tasker("tasker@example.com").await);
    let task_id = id(&post_task(&app, &poster, json!({ "title": "Hold the line" })).await);
    let mut poster_socket = connect(&app, Some(&poster)).await;
    let user_topic = format!("user:{poster_id}");
    subscribe(&mut poster_socket, &user_topic).await;

    let held = hold_writes(&app).await;
    let impatient = reqwest::Client::builder().timeout(std::time::Duration::from_millis(400)).build().unwrap();
    let gave_up = impatient
        .post(app.url(&format!("/api/tasks/{task_id}/offers")))
        .bearer_auth(&tasker)
        .json(&json!({ "amount_cents": 7000, "message": "On my way" }))
        .send()
        .await;
    assert!(gave_up.as_ref().is_err_and(|error| error.is_timeout()), "the client gives up: {gave_up:?}");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    held.release().await;

    let offer = next_event(&mut poster_socket, &user_topic, "offer.created").await;
    assert_eq!(offer["amount_cents"], 7000);
    next_event(&mut poster_socket, &user_topic, "notification.created").await;
    let offers = app.get(&format!("/api/tasks/{task_id}/offers"), Some(&poster)).await;
    assert_eq!(offers.body["items"].as_array().map(Vec::len), Some(1), "{:?}", offers.body);
    app
}

/// Holds the database's writers back until released: SQLite's write lock, or on PostgreSQL a
/// lock on the offers table that lets reads through.
enum HeldWrites {
    Sqlite(sqlx::pool::PoolConnection<sqlx::Sqlite>),
    Postgres(sqlx::Transaction<'static, sqlx::Postgres>),
}

async fn hold_writes(app: &TestApp) -> HeldWrites {
    match &app.server.state.db {
        store::db::Db::Sqlite(pool) => {
            let mut conn = pool.acquire().await.unwrap();
            sqlx::query("begin immediate").execute(&mut *conn).await.unwrap();
            HeldWrites::Sqlite(conn)
        }
        store::db::Db::Postgres(pool) => {
            let mut tx = pool.begin().await.unwrap();
            sqlx::query("lock table offers in exclusive mode").execute(&mut *tx).await.unwrap();
            HeldWrites::Postgres(tx)
        }
    }
}

impl HeldWrites {
    async fn release(self) {
        match self {
            HeldWrites::Sqlite(mut conn) => {
                sqlx::query("commit").execute(&mut *conn).await.unwrap();
            }
            HeldWrites::Postgres(tx) => tx.commit().await.unwrap(),
        }
    }
}

/// Every background loop of a node (payments sweep, alert matching, delivery, ticket and
/// rate-limit cleanup, the task-view writer, SQLite's planner statistics) stops on shutdown, and the pool is closed only after
/// the last one.
async fn shutdown_stops_every_worker_before_closing_the_pool(app: TestApp) -> TestApp {
    let mut config = app.server.state.config.as_ref().clone();
    config.bind_addr = "127.0.0.1:0".into();
    config.payments_sweep_secs = 60;
    config.task_alerts_poll_secs = 5;
    let node = server::start(config).await.expect("second node starts");
    let (workers, db) = (node.workers.clone(), node.state.db.clone());
    assert_eq!(
        workers.running(),
        7,
        "sweep, alert matching, delivery, ticket and rate-limit cleanup, task views, planner statistics"
    );

    // A request that leaves work behind (the reset mail is sent off the request path): shutdown
    // waits for it, so the mail goes out before the pool closes.
    app.signed_in_user("leaving-mail@example.com").await;
    let recover = app
        .client
        .post(format!("{}/api/auth/recover", node.url()))
        .json(&json!({ "email": "leaving-mail@example.com" }))
        .send()
        .await
        .unwrap();
    assert_eq!(recover.status(), StatusCode::ACCEPTED);

    let stopped = tokio::time::timeout(std::time::Duration::from_secs(5), node.shutdown()).await;
    stopped.expect("shut down within 5 s").expect("shut down cleanly");
    assert!(workers.is_stopping(), "no worker can start after shutdown");
    assert_eq!(workers.running(), 0, "every worker has stopped");
    assert_eq!(workers.background_running(), 0, "the work requests left behind is done");
    assert!(db.is_closed(), "the pool is closed");
    let mailed = app.mailbox().await;
    assert!(
        mailed
            .iter()
            .any(|mail| mail["to"] == "leaving-mail@example.com" && mail["subject"] == "Reset your Taskhub password"),
        "the reset mail went out before shutdown finished: {mailed:?}"
    );
    app
}
