//! Reports (issue 23, API.md "Trust and safety"): signed-in users report what they can
//! see; the report keeps a snapshot of the text; a repeat while open is the same report;
//! 20 an hour per user. Refusals add no row.

use store::reports;

use crate::common;

use common::{
    TestApp,
    escrow::{Assigned, assigned_task},
    market::{id, make_offer, post_task, poster, tasker},
    rows::snapshot_table,
};
use reqwest::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

on_both_backends!(
    a_report_keeps_a_snapshot_and_a_repeat_while_open_is_the_same_report,
    every_kind_of_target_can_be_reported_by_whoever_can_see_it,
    reports_of_what_the_caller_cannot_see_or_of_nothing_add_no_row,
    a_user_files_at_most_twenty_reports_an_hour,
);

fn report(target_type: &str, target_id: &str, reason: &str) -> Value {
    json!({ "target": { "type": target_type, "id": target_id }, "reason": reason, "details": "Looks wrong" })
}

async fn user_id(app: &TestApp, token: &str) -> String {
    app.get("/api/me", Some(token)).await.body["user"]["id"].as_str().unwrap().to_owned()
}

async fn a_report_keeps_a_snapshot_and_a_repeat_while_open_is_the_same_report(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let reporter = tasker(&app, "tasker@example.com").await;
    let task = id(&post_task(&app, &owner, json!({ "title": "Too good to be true" })).await);

    let filed = app.post("/api/reports", Some(&reporter), report("task", &task, "scam")).await;
    assert_eq!(filed.status, StatusCode::CREATED, "{:?}", filed.body);
    assert_eq!(filed.body["status"], "open");
    assert_eq!(filed.body["reason"], "scam");
    assert_eq!(filed.body["target"], json!({ "type": "task", "id": task }));
    assert!(filed.body["created_at"].is_string());

    let edited = app
        .patch(&format!("/api/tasks/{task}"), Some(&owner), json!({ "title": "Nothing to see", "description": "Gone" }))
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{:?}", edited.body);
    let stored = reports::report_by_id(&app.server.state.db, id(&filed.body).parse().unwrap()).await.unwrap().unwrap();
    assert_eq!(stored.snapshot, "Too good to be true\n\nTwo flat-pack wardrobes need assembling");
    assert_eq!(stored.details, "Looks wrong");
    assert_eq!(stored.author_id.to_string(), user_id(&app, &owner).await);

    let before = snapshot_table(&app, "reports").await;
    let again = app.post("/api/reports", Some(&reporter), report("task", &task, "spam")).await;
    assert_eq!(again.status, StatusCode::OK, "{:?}", again.body);
    assert_eq!(again.body["id"], filed.body["id"]);
    assert_eq!(again.body["reason"], "scam", "the open report is answered as it was filed");
    assert_eq!(snapshot_table(&app, "reports").await, before, "a repeat adds no row");

    let other = poster(&app, "other@example.com").await;
    let second = app.post("/api/reports", Some(&other), report("task", &task, "spam")).await;
    assert_eq!(second.status, StatusCode::CREATED, "another reporter files their own");
    assert_ne!(second.body["id"], filed.body["id"]);
    app
}

async fn every_kind_of_target_can_be_reported_by_whoever_can_see_it(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 5_000).await;
    let Assigned { poster, tasker, task, offer } = &assigned;
    let released = app.post(&format!("/api/tasks/{task}/release"), Some(poster), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    let review =
        app.post(&format!("/api/tasks/{task}/reviews"), Some(tasker), json!({ "rating": 1, "body": "Rude" })).await;
    assert_eq!(review.status, StatusCode::CREATED, "{:?}", review.body);
    let message =
        app.post(&format!("/api/tasks/{task}/messages"), Some(tasker), json!({ "body": "Pay me more" })).await;
    assert_eq!(message.status, StatusCode::CREATED, "{:?}", message.body);

    let other_task = id(&post_task(&app, poster, json!({})).await);
    let asked = app.post(&format!("/api/tasks/{other_task}/questions"), Some(tasker), json!({ "body": "Why?" })).await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    let stranger = common::market::tasker(&app, "stranger@example.com").await;
    let tasker_id = user_id(&app, tasker).await;

    for (token, target_type, target_id) in [
        (&stranger, "task", task.clone()),
        (&stranger, "user", tasker_id),
        (poster, "offer", offer.clone()),
        (&stranger, "question", id(&asked.body)),
        (poster, "message", id(&message.body)),
        (poster, "review", id(&review.body)),
    ] {
        let filed = app.post("/api/reports", Some(token), report(target_type, &target_id, "offensive")).await;
        assert_eq!(filed.status, StatusCode::CREATED, "{target_type}: {:?}", filed.body);
        assert_eq!(filed.body["target"]["type"], target_type);
    }
    // The review is hidden until the poster reviews too (or 14 days pass): a stranger cannot see it yet.
    let hidden = app.post("/api/reports", Some(&stranger), report("review", &id(&review.body), "spam")).await;
    assert_eq!(hidden.status, StatusCode::NOT_FOUND, "{:?}", hidden.body);
    app
}

async fn reports_of_what_the_caller_cannot_see_or_of_nothing_add_no_row(app: TestApp) -> TestApp {
    let Assigned { poster, tasker, task, .. } = assigned_task(&app, 5_000).await;
    let message =
        app.post(&format!("/api/tasks/{task}/messages"), Some(&poster), json!({ "body": "Gate code 1234" })).await;
    let stranger = common::market::tasker(&app, "stranger@example.com").await;
    let nobody = Uuid::now_v7().to_string();

    let unauthenticated = app.post("/api/reports", None, report("task", &task, "spam")).await;
    assert_eq!(unauthenticated.status, StatusCode::UNAUTHORIZED);
    let private = app.post("/api/reports", Some(&stranger), report("message", &id(&message.body), "spam")).await;
    assert_eq!(private.status, StatusCode::NOT_FOUND, "a message only its two parties may report");
    assert_eq!(private.error_code(), "not_found");
    for target_type in ["task", "user", "offer", "question", "message", "review"] {
        let missing = app.post("/api/reports", Some(&tasker), report(target_type, &nobody, "spam")).await;
        assert_eq!(missing.status, StatusCode::NOT_FOUND, "{target_type}");
    }
    let bad_reason = app.post("/api/reports", Some(&tasker), report("task", &task, "boring")).await;
    assert_eq!(bad_reason.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", bad_reason.body);
    let bad_type = app.post("/api/reports", Some(&tasker), report("planet", &task, "spam")).await;
    assert_eq!(bad_type.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", bad_type.body);
    let mut long = report("task", &task, "spam");
    long["details"] = json!("x".repeat(1001));
    let too_long = app.post("/api/reports", Some(&tasker), long).await;
    assert_eq!(too_long.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(too_long.field_error("details"), "Must be at most 1000 characters");
    assert!(snapshot_table(&app, "reports").await.is_empty(), "refused reports add no row");
    app
}

async fn a_user_files_at_most_twenty_reports_an_hour(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let reporter = tasker(&app, "tasker@example.com").await;
    let offerer = tasker(&app, "offerer@example.com").await;
    for _ in 0..20 {
        let task = id(&post_task(&app, &owner, json!({})).await);
        let filed = app.post("/api/reports", Some(&reporter), report("task", &task, "spam")).await;
        assert_eq!(filed.status, StatusCode::CREATED, "{:?}", filed.body);
    }
    let task = id(&post_task(&app, &owner, json!({})).await);
    make_offer(&app, &offerer, &task, 6_000).await;
    let before = snapshot_table(&app, "reports").await;
    let refused = app.post("/api/reports", Some(&reporter), report("task", &task, "spam")).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", refused.body);
    assert!(refused.headers.contains_key("retry-after"));
    assert_eq!(snapshot_table(&app, "reports").await, before);
    let someone_else = app.post("/api/reports", Some(&offerer), report("task", &task, "spam")).await;
    assert_eq!(someone_else.status, StatusCode::CREATED, "the budget is per user");
    app
}
