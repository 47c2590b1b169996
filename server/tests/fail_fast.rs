//! While the database cannot give a request a connection, the request waits at most
//! `database_acquire_timeout` and answers 503 with `Retry-After`; anonymous public reads
//! (browse, a task page) are answered from their last good copy, at most 30 s old, with `Age`.
//! The database is made unavailable by holding every connection of the server's pool.

use std::time::{Duration, Instant};

use domain::config::Config;
use store::db::Db;

use crate::common;

use common::{
    TestApp,
    market::{id, post_task, poster},
};
use reqwest::{StatusCode, header};

fn quick_acquire(config: &mut Config) {
    config.database_acquire_timeout = Duration::from_millis(300);
}

on_both_backends!(config = quick_acquire;
    an_exhausted_pool_answers_503_quickly_and_public_reads_from_their_last_copy,
);

/// Takes every connection the pool may open, so the next query waits for the acquire timeout.
async fn hold_every_connection(db: &Db) -> HeldConnections {
    match db {
        Db::Sqlite(pool) => {
            let mut held = Vec::new();
            for _ in 0..pool.options().get_max_connections() {
                held.push(pool.acquire().await.unwrap());
            }
            HeldConnections::Sqlite(held)
        }
        Db::Postgres(pool) => {
            let mut held = Vec::new();
            for _ in 0..pool.options().get_max_connections() {
                held.push(pool.acquire().await.unwrap());
            }
            HeldConnections::Postgres(held)
        }
    }
}

#[allow(dead_code)] // held only to be dropped
enum HeldConnections {
    Sqlite(Vec<sqlx::pool::PoolConnection<sqlx::Sqlite>>),
    Postgres(Vec<sqlx::pool::PoolConnection<sqlx::Postgres>>),
}

async fn an_exhausted_pool_answers_503_quickly_and_public_reads_from_their_last_copy(app: TestApp) -> TestApp {
    let token = poster(&app, "fail.fast@example.com").await;
    let task = post_task(&app, &token, serde_json::json!({ "title": "Fix a dripping tap" })).await;
    let page = format!("/api/tasks/{}", id(&task));
    let fresh_page = app.get(&page, None).await;
    let fresh_browse = app.get("/api/tasks?q=tap", None).await;
    assert_eq!(fresh_page.status, StatusCode::OK);
    assert_eq!(fresh_browse.status, StatusCode::OK);
    assert!(fresh_page.headers.get(header::AGE).is_none());

    let held = hold_every_connection(&app.server.state.db).await;

    // Signed in: never a stale copy, but a fast 503 in the error shape.
    let started = Instant::now();
    let signed_in = app.get(&page, Some(&token)).await;
    assert_eq!(signed_in.status, StatusCode::SERVICE_UNAVAILABLE, "{:?}", signed_in.body);
    assert_eq!(signed_in.error_code(), "unavailable");
    assert!(signed_in.headers.get(header::RETRY_AFTER).is_some());
    assert!(started.elapsed() < Duration::from_secs(5), "waited {:?} for a connection", started.elapsed());

    // Anonymous reads seen before: their copy, marked with its age.
    let stale_page = app.get(&page, None).await;
    assert_eq!(stale_page.status, StatusCode::OK, "{:?}", stale_page.body);
    assert_eq!(stale_page.body, fresh_page.body);
    let age: u64 = stale_page.headers[header::AGE].to_str().unwrap().parse().unwrap();
    assert!(age <= 30);
    let stale_browse = app.get("/api/tasks?q=tap", None).await;
    assert_eq!(stale_browse.status, StatusCode::OK);
    assert_eq!(stale_browse.body, fresh_browse.body);
    assert!(stale_browse.headers.get(header::AGE).is_some());

    // A read never answered before has no copy: the 503.
    let unseen = app.get("/api/tasks?q=never-seen", None).await;
    assert_eq!(unseen.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(unseen.error_code(), "unavailable");

    drop(held);
    let again = app.get(&page, None).await;
    assert_eq!(again.status, StatusCode::OK);
    assert!(again.headers.get(header::AGE).is_none(), "a fresh answer once the database is back");
    app
}
