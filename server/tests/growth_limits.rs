//! What one user can make the server store or do without bound: offers per
//! tasker per task, offer churn, embedded lists, checkout sessions, and the
//! labels of request metrics.

use crate::common;

use common::{
    Backend, TestApp,
    market::{id, make_offer, post_task, poster, tasker},
};
use reqwest::{Method, StatusCode};
use serde_json::json;

on_both_backends!(
    a_tasker_can_offer_at_most_five_times_on_one_task,
    making_and_withdrawing_offers_is_rate_limited,
    offers_and_questions_come_a_page_at_a_time,
    checkout_sessions_are_throttled_per_task,
);

async fn offer_and_withdraw(app: &TestApp, token: &str, task: &str) {
    let offer = id(&make_offer(app, token, task, 9_000).await);
    let withdrawn = app.post(&format!("/api/offers/{offer}/withdraw"), Some(token), json!({})).await;
    assert_eq!(withdrawn.status, StatusCode::OK, "{:?}", withdrawn.body);
}

async fn a_tasker_can_offer_at_most_five_times_on_one_task(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let first_tasker = tasker(&app, "tasker@example.com").await;
    for _ in 0..5 {
        offer_and_withdraw(&app, &first_tasker, &task).await;
    }
    let sixth = app
        .post(
            &format!("/api/tasks/{task}/offers"),
            Some(&first_tasker),
            json!({ "amount_cents": 9000, "message": "Again" }),
        )
        .await;
    assert_eq!(sixth.status, StatusCode::CONFLICT, "{:?}", sixth.body);
    assert_eq!(sixth.error_code(), "conflict");
    assert!(sixth.body["error"]["message"].as_str().unwrap().contains("the most allowed"));
    // Another tasker is not affected.
    let other = tasker(&app, "other@example.com").await;
    make_offer(&app, &other, &task, 9_500).await;
    app
}

async fn making_and_withdrawing_offers_is_rate_limited(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let first = id(&post_task(&app, &poster, json!({})).await);
    let second = id(&post_task(&app, &poster, json!({ "title": "Mow the lawn" })).await);
    let tasker = tasker(&app, "tasker@example.com").await;
    // Ten actions on the first task, two on the second: twelve a minute is the budget.
    for _ in 0..5 {
        offer_and_withdraw(&app, &tasker, &first).await;
    }
    offer_and_withdraw(&app, &tasker, &second).await;
    let refused = app
        .post(&format!("/api/tasks/{second}/offers"), Some(&tasker), json!({ "amount_cents": 9000, "message": "Hi" }))
        .await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", refused.body);
    assert_eq!(refused.error_code(), "rate_limited");
    assert!(refused.headers.contains_key("retry-after"));
    app
}

async fn offers_and_questions_come_a_page_at_a_time(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let mut offers = Vec::new();
    for n in 0..3 {
        let tasker = tasker(&app, &format!("tasker{n}@example.com")).await;
        offers.push(id(&make_offer(&app, &tasker, &task, 9_000 + n).await));
        let asked =
            app.post(&format!("/api/tasks/{task}/questions"), Some(&tasker), json!({ "body": format!("Q{n}?") })).await;
        assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    }

    let first = app.get(&format!("/api/tasks/{task}/offers?limit=2"), Some(&poster)).await;
    assert_eq!(first.status, StatusCode::OK, "{:?}", first.body);
    let ids =
        |page: &common::Response| -> Vec<String> { page.body["items"].as_array().unwrap().iter().map(id).collect() };
    assert_eq!(ids(&first), offers[..2]);
    assert_eq!(first.body["has_more"], true);
    assert_eq!(first.body["items"][0]["amount_cents"], 9000, "the poster still sees amounts");
    let cursor = first.body["next_cursor"].as_str().unwrap();
    let rest = app.get(&format!("/api/tasks/{task}/offers?limit=2&cursor={cursor}"), None).await;
    assert_eq!(ids(&rest), offers[2..]);
    assert_eq!(rest.body["has_more"], false);
    assert!(rest.body["next_cursor"].is_null());
    assert!(rest.body["items"][0]["amount_cents"].is_null(), "visitors never see amounts");

    let questions = app.get(&format!("/api/tasks/{task}/questions?limit=2"), None).await;
    assert_eq!(questions.body["items"].as_array().unwrap().len(), 2);
    assert_eq!(questions.body["items"][0]["body"], "Q0?");
    let cursor = questions.body["next_cursor"].as_str().unwrap();
    let last = app.get(&format!("/api/tasks/{task}/questions?cursor={cursor}"), None).await;
    assert_eq!(last.body["items"][0]["body"], "Q2?");
    assert_eq!(last.body["has_more"], false);

    // The detail screen embeds the first page of questions, and says whether there are more.
    let detail = app.get(&format!("/api/tasks/{task}"), None).await;
    assert_eq!(detail.body["questions"].as_array().unwrap().len(), 3);
    assert_eq!(detail.body["questions_has_more"], false);
    assert!(detail.body["questions_next_cursor"].is_null());

    let junk = app.get(&format!("/api/tasks/{task}/offers?cursor=not-a-cursor"), None).await;
    assert_eq!((junk.status, junk.error_code()), (StatusCode::BAD_REQUEST, "bad_request"));
    let too_many = app.get(&format!("/api/tasks/{task}/questions?limit=1000"), None).await;
    assert_eq!((too_many.status, too_many.error_code()), (StatusCode::UNPROCESSABLE_ENTITY, "validation_failed"));
    app
}

async fn checkout_sessions_are_throttled_per_task(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let tasker = tasker(&app, "tasker@example.com").await;
    let offer = id(&make_offer(&app, &tasker, &task, 9_000).await);
    let checkout =
        || app.post("/api/payments/checkout-session", Some(&poster), json!({ "task_id": task, "offer_id": offer }));
    for n in 0..10 {
        let started = checkout().await;
        assert_eq!(started.status, StatusCode::OK, "checkout {n}: {:?}", started.body);
    }
    let refused = checkout().await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", refused.body);
    assert_eq!(refused.error_code(), "rate_limited");
    app
}

// Metrics labels do not depend on the database: one backend is enough.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invented_http_methods_are_counted_as_other() {
    common::run(
        Backend::Sqlite,
        |_| {},
        |app| async move {
            let invented = Method::from_bytes(b"BREWCOFFEE").unwrap();
            let answer = app.client.request(invented, app.url("/api/tasks")).send().await.unwrap();
            assert!(answer.status().is_client_error());
            let metrics = app.client.get(app.url("/metrics")).send().await.unwrap().text().await.unwrap();
            assert!(!metrics.contains("BREWCOFFEE"), "an invented method never becomes a label");
            assert!(metrics.contains(r#"method="other""#), "{metrics}");
            app
        },
    )
    .await;
}
