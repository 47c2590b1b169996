//! `server seed --demo` fills a believable marketplace once, and only once.

use crate::common;

use common::TestApp;
use reqwest::StatusCode;
use serde_json::json;
use server::seed::{DEMO_PASSWORD, DEMO_PEOPLE, seed_demo};

on_both_backends!(demo_seed_is_complete_and_idempotent);

async fn demo_seed_is_complete_and_idempotent(app: TestApp) -> TestApp {
    let state = &app.server.state;
    let first = seed_demo(&state.db, &state.media).await.unwrap();
    assert!(first.contains("12 people created"), "{first}");
    let second = seed_demo(&state.db, &state.media).await.unwrap();
    assert!(second.contains("0 people created") && second.contains("0 tasks and 0 offers"), "{second}");

    let login =
        app.post("/api/auth/login", None, json!({ "email": DEMO_PEOPLE[1].email(), "password": DEMO_PASSWORD })).await;
    assert_eq!(login.status, StatusCode::OK);
    let avatar = login.body["profile"]["avatar_url"].as_str().unwrap();
    let picture = app.client.get(app.url(avatar)).send().await.unwrap();
    assert_eq!(picture.status(), StatusCode::OK);
    assert_eq!(picture.headers()["content-type"], "image/png");

    let browse = app.get("/api/tasks?limit=100", None).await;
    let items = browse.body["items"].as_array().unwrap();
    assert_eq!(items.len(), 34);
    let categories: std::collections::BTreeSet<i64> =
        items.iter().map(|task| task["category_id"].as_i64().unwrap()).collect();
    assert_eq!(categories.len(), 16, "every category has a task");
    assert!(items.iter().any(|task| task["offer_count"].as_i64().unwrap() > 0));
    app
}
