//! Task alerts: saving and managing them, matching posted tasks against them
//! (exactly one `task_alert` per matching tasker), durability of matching
//! across a restart, and the live notification; on both backends.

use domain::{alerts::matching, config::Config};

use crate::common;

use std::time::{Duration, Instant};

use common::{
    TestApp,
    live::{connect, next_event_where},
    market::{id, post_task, poster, tasker},
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

const NEWTOWN: (f64, f64) = (-33.89781, 151.17850);
/// About one kilometre of latitude, in degrees.
const KM: f64 = 1.0 / 111.195;

/// The matching worker off: each test runs it itself, so what it finds is deterministic.
fn worker_off(config: &mut Config) {
    config.task_alerts_poll_secs = 0;
}

mod without_worker {
    use super::*;

    on_both_backends!(config = worker_off;
    alerts_are_saved_listed_changed_and_deleted_by_their_owner_only,
    alerts_reject_bad_input_and_stop_at_twenty,
    a_posted_task_notifies_each_matching_tasker_exactly_once,
    a_remote_task_matches_only_remote_ok_alerts,
    a_task_committed_while_matching_was_down_is_matched_after_a_restart,
    );
}

on_both_backends_and_buses!(a_matching_task_arrives_live_on_the_taskers_topic);

fn newtown_alert(extra: Value) -> Value {
    let mut body = json!({
        "q": "plumbing",
        "categories": [],
        "place": { "label": "Newtown NSW 2042", "lat": NEWTOWN.0, "lon": NEWTOWN.1 },
        "radius_km": 10,
        "remote_ok": false,
    });
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    body
}

async fn save_alert(app: &TestApp, token: &str, body: Value) -> Value {
    let response = app.post("/api/me/alerts", Some(token), body).await;
    assert_eq!(response.status, StatusCode::CREATED, "{:?}", response.body);
    response.body
}

/// A plumbing task in Handyman (3) at `lat`/`lon`, $150.
fn plumbing_task(lat: f64, lon: f64) -> Value {
    json!({
        "title": "Plumbing: fix a leaking kitchen tap",
        "description": "The mixer tap drips all night",
        "category_id": 3,
        "location": "Newtown NSW 2042",
        "lat": lat,
        "lon": lon,
        "budget_cents": 15000,
    })
}

async fn task_alerts_of(app: &TestApp, token: &str) -> Vec<Value> {
    let response = app.get("/api/notifications", Some(token)).await;
    assert_eq!(response.status, StatusCode::OK, "{:?}", response.body);
    response.body["items"].as_array().unwrap().iter().filter(|n| n["type"] == "task_alert").cloned().collect()
}

async fn alerts_manager(app: &TestApp, token: &str) -> Vec<Value> {
    let response = app.get("/api/me/alerts", Some(token)).await;
    assert_eq!(response.status, StatusCode::OK, "{:?}", response.body);
    response.body["items"].as_array().unwrap().clone()
}

async fn alerts_are_saved_listed_changed_and_deleted_by_their_owner_only(app: TestApp) -> TestApp {
    let owner = tasker(&app, "owner@example.com").await;
    let stranger = tasker(&app, "stranger@example.com").await;
    assert_eq!(app.get("/api/me/alerts", None).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.post("/api/me/alerts", None, newtown_alert(json!({}))).await.status, StatusCode::UNAUTHORIZED);

    let alert = save_alert(&app, &owner, newtown_alert(json!({ "categories": [3, 3, 1] }))).await;
    assert_eq!(alert["name"], "plumbing near Newtown NSW 2042");
    assert_eq!(alert["categories"], json!([1, 3]));
    assert_eq!(alert["place"]["label"], "Newtown NSW 2042");
    assert_eq!(alert["radius_km"], 10);
    assert_eq!(alert["paused"], false);
    assert_eq!(alert["matched_this_week"], 0);
    let alert_id = id(&alert);
    assert_eq!(alerts_manager(&app, &owner).await.len(), 1);
    assert!(alerts_manager(&app, &stranger).await.is_empty());

    let path = format!("/api/me/alerts/{alert_id}");
    let paused = app.patch(&path, Some(&owner), json!({ "paused": true, "name": "Taps" })).await;
    assert_eq!(paused.status, StatusCode::OK, "{:?}", paused.body);
    assert_eq!(paused.body["paused"], true);
    assert_eq!(paused.body["name"], "Taps");
    assert_eq!(paused.body["q"], "plumbing", "fields not sent keep their value");
    let anywhere = app.patch(&path, Some(&owner), json!({ "place": null })).await;
    assert_eq!(anywhere.status, StatusCode::OK, "{:?}", anywhere.body);
    assert_eq!(anywhere.body["place"], Value::Null);
    assert_eq!(anywhere.body["radius_km"], Value::Null);

    // Someone else's alert does not exist for them.
    let theirs = app.patch(&path, Some(&stranger), json!({ "paused": false })).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND);
    assert_eq!(theirs.error_code(), "not_found");
    assert_eq!(app.request(Method::DELETE, &path, Some(&stranger), None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(alerts_manager(&app, &owner).await[0]["paused"], true);

    assert_eq!(app.request(Method::DELETE, &path, Some(&owner), None).await.status, StatusCode::NO_CONTENT);
    assert!(alerts_manager(&app, &owner).await.is_empty());
    assert_eq!(app.request(Method::DELETE, &path, Some(&owner), None).await.status, StatusCode::NOT_FOUND);
    let malformed = app.request(Method::DELETE, "/api/me/alerts/not-an-id", Some(&owner), None).await;
    assert!(malformed.status.is_client_error() && !malformed.error_code().is_empty(), "{malformed:?}");
    app
}

async fn alerts_reject_bad_input_and_stop_at_twenty(app: TestApp) -> TestApp {
    let token = tasker(&app, "limits@example.com").await;
    let empty = app.post("/api/me/alerts", Some(&token), json!({})).await;
    assert_eq!(empty.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(empty.body["error"]["message"], "Add keywords, a category or a place to your alert");
    let too_wide = app.post("/api/me/alerts", Some(&token), newtown_alert(json!({ "radius_km": 150 }))).await;
    assert_eq!(too_wide.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(too_wide.field_error("radius_km"), "Radius must be from 1 to 100 km");
    let no_such_category = app.post("/api/me/alerts", Some(&token), json!({ "categories": [99] })).await;
    assert_eq!(no_such_category.field_error("categories"), "Please choose valid categories");
    let off_the_map = app
        .post("/api/me/alerts", Some(&token), json!({ "place": { "label": "Nowhere", "lat": 123.0, "lon": 0.0 } }))
        .await;
    assert_eq!(off_the_map.field_error("place"), "Please pick a place from the suggestions");
    let wrong_type = app.post("/api/me/alerts", Some(&token), json!({ "categories": "plumbing" })).await;
    assert!(wrong_type.status.is_client_error() && !wrong_type.error_code().is_empty(), "{wrong_type:?}");

    for n in 0..20 {
        save_alert(&app, &token, json!({ "q": format!("job {n}") })).await;
    }
    let twenty_first = app.post("/api/me/alerts", Some(&token), json!({ "q": "one more" })).await;
    assert_eq!(twenty_first.status, StatusCode::CONFLICT);
    assert_eq!(twenty_first.body["error"]["message"], "You can save up to 20 alerts. Delete one to add another.");
    assert_eq!(alerts_manager(&app, &token).await.len(), 20);
    app
}

async fn a_posted_task_notifies_each_matching_tasker_exactly_once(app: TestApp) -> TestApp {
    let poster_token = poster(&app, "poster@example.com").await;
    // Two alerts of one tasker match: still one notification.
    let twice = tasker(&app, "twice@example.com").await;
    let first = save_alert(&app, &twice, newtown_alert(json!({}))).await;
    let second = save_alert(&app, &twice, json!({ "categories": [3] })).await;
    // A circle whose edge is 9.5 km away matches; 10.5 km away does not.
    let inside = tasker(&app, "inside@example.com").await;
    save_alert(
        &app,
        &inside,
        json!({ "q": "tap", "place": { "label": "North", "lat": NEWTOWN.0 + 9.5 * KM, "lon": NEWTOWN.1 }, "radius_km": 10 }),
    )
    .await;
    let outside = tasker(&app, "outside@example.com").await;
    save_alert(
        &app,
        &outside,
        json!({ "q": "tap", "place": { "label": "North", "lat": NEWTOWN.0 + 10.5 * KM, "lon": NEWTOWN.1 }, "radius_km": 10 }),
    )
    .await;
    let other_category = tasker(&app, "painter@example.com").await;
    save_alert(&app, &other_category, newtown_alert(json!({ "q": "", "categories": [7] }))).await;
    let other_keyword = tasker(&app, "gutters@example.com").await;
    save_alert(&app, &other_keyword, newtown_alert(json!({ "q": "gutter, roof" }))).await;
    let pricier = tasker(&app, "pricier@example.com").await;
    save_alert(&app, &pricier, newtown_alert(json!({ "min_budget_cents": 20000 }))).await;
    let cheap_enough = tasker(&app, "cheap@example.com").await;
    save_alert(&app, &cheap_enough, newtown_alert(json!({ "min_budget_cents": 15000 }))).await;
    let paused = tasker(&app, "paused@example.com").await;
    save_alert(&app, &paused, newtown_alert(json!({ "paused": true }))).await;
    // The poster's own alert never fires for their own task.
    save_alert(&app, &poster_token, newtown_alert(json!({}))).await;

    let task = post_task(&app, &poster_token, plumbing_task(NEWTOWN.0, NEWTOWN.1)).await;
    let written = matching::run_pending(&app.server.state).await.expect("matching runs");
    assert_eq!(written, 3, "twice, inside and cheap_enough");
    assert_eq!(matching::run_pending(&app.server.state).await.unwrap(), 0, "a job is matched once");

    for token in [&twice, &inside, &cheap_enough] {
        let alerts = task_alerts_of(&app, token).await;
        assert_eq!(alerts.len(), 1, "{alerts:?}");
        assert_eq!(alerts[0]["link"], format!("/task/{}", id(&task)));
        assert_eq!(alerts[0]["title"], "New task for you");
        assert!(alerts[0]["message"].as_str().unwrap().contains("Plumbing: fix a leaking kitchen tap"));
    }
    for token in [&outside, &other_category, &other_keyword, &pricier, &paused, &poster_token] {
        assert!(task_alerts_of(&app, token).await.is_empty());
    }
    // Both of the tasker's alerts count the task in the manager.
    let counts: Vec<(String, i64)> = alerts_manager(&app, &twice)
        .await
        .iter()
        .map(|alert| (id(alert), alert["matched_this_week"].as_i64().unwrap()))
        .collect();
    assert_eq!(counts, vec![(id(&first), 1), (id(&second), 1)]);
    app
}

async fn a_remote_task_matches_only_remote_ok_alerts(app: TestApp) -> TestApp {
    let poster_token = poster(&app, "poster@example.com").await;
    let remote_ok = tasker(&app, "remote@example.com").await;
    save_alert(&app, &remote_ok, newtown_alert(json!({ "q": "website", "remote_ok": true }))).await;
    let local_only = tasker(&app, "local@example.com").await;
    save_alert(&app, &local_only, newtown_alert(json!({ "q": "website" }))).await;
    post_task(
        &app,
        &poster_token,
        json!({ "title": "Fix my website", "description": "A broken contact form", "category_id": 9,
                "location": "", "remote": true }),
    )
    .await;
    matching::run_pending(&app.server.state).await.unwrap();
    assert_eq!(task_alerts_of(&app, &remote_ok).await.len(), 1);
    assert!(task_alerts_of(&app, &local_only).await.is_empty());
    app
}

async fn a_task_committed_while_matching_was_down_is_matched_after_a_restart(app: TestApp) -> TestApp {
    let poster_token = poster(&app, "poster@example.com").await;
    let tasker_token = tasker(&app, "tasker@example.com").await;
    save_alert(&app, &tasker_token, newtown_alert(json!({}))).await;
    // This node's worker is off: the task commits, its matching job waits in the outbox.
    let task = post_task(&app, &poster_token, plumbing_task(NEWTOWN.0, NEWTOWN.1)).await;
    assert!(task_alerts_of(&app, &tasker_token).await.is_empty());

    // A node started later on the same database (as after a crash) picks the job up by itself.
    let mut config = (*app.server.state.config).clone();
    config.bind_addr = "127.0.0.1:0".into();
    config.task_alerts_poll_secs = 1;
    let restarted = server::start(config).await.expect("second node starts");
    let deadline = Instant::now() + Duration::from_secs(15);
    let alerts = loop {
        let alerts = task_alerts_of(&app, &tasker_token).await;
        if !alerts.is_empty() || Instant::now() > deadline {
            break alerts;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(alerts.len(), 1, "the restarted node matched the waiting task");
    assert_eq!(alerts[0]["link"], format!("/task/{}", id(&task)));
    // The job is done: the first node finds nothing left to do.
    assert_eq!(matching::run_pending(&app.server.state).await.unwrap(), 0);
    assert_eq!(task_alerts_of(&app, &tasker_token).await.len(), 1);
    restarted.shutdown().await.ok();
    app
}

async fn a_matching_task_arrives_live_on_the_taskers_topic(app: TestApp) -> TestApp {
    let poster_token = poster(&app, "poster@example.com").await;
    // Several recipients: their notifications are published at once (`live::notifications_created`).
    let mut watchers = Vec::new();
    for email in ["tasker@example.com", "second.tasker@example.com", "third.tasker@example.com"] {
        let tasker_token = tasker(&app, email).await;
        save_alert(&app, &tasker_token, newtown_alert(json!({}))).await;
        let me = app.get("/api/me", Some(&tasker_token)).await;
        let topic = format!("user:{}", me.body["user"]["id"].as_str().unwrap());
        let mut socket = connect(&app, Some(&tasker_token)).await;
        common::live::subscribe(&mut socket, &topic).await;
        watchers.push((topic, socket));
    }

    let task = post_task(&app, &poster_token, plumbing_task(NEWTOWN.0, NEWTOWN.1)).await;
    let link = format!("/task/{}", id(&task));
    for (topic, mut socket) in watchers {
        let notification =
            next_event_where(&mut socket, &topic, "notification.created", |data| data["type"] == "task_alert").await;
        assert_eq!(notification["link"], link, "{topic}");
    }
    app
}
