//! Read receipts (`POST /api/tasks/{id}/messages/read`, `message.read`, `read_up_to` in the
//! conversation), the privacy settings that turn them off both ways, and typing between the two
//! parties of a task over `/ws`. On both databases; the live parts also through Redis.

use crate::common;

use common::{
    TestApp,
    escrow::assigned_task,
    live::{connect, next_event, next_json, send_json, subscribe},
    market::id,
    rows::snapshot_table,
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

async fn user_id(app: &TestApp, token: &str) -> String {
    app.get("/api/me", Some(token)).await.body["user"]["id"].as_str().expect("my id").to_owned()
}

async fn send(app: &TestApp, task: &str, token: &str, body: &str) -> String {
    let sent = app.post(&format!("/api/tasks/{task}/messages"), Some(token), json!({ "body": body })).await;
    assert_eq!(sent.status, StatusCode::CREATED, "{:?}", sent.body);
    id(&sent.body)
}

async fn read(app: &TestApp, task: &str, token: &str, up_to: Value) -> common::Response {
    app.post(&format!("/api/tasks/{task}/messages/read"), Some(token), json!({ "up_to": up_to })).await
}

async fn conversation(app: &TestApp, task: &str, token: &str) -> Value {
    let response = app.get(&format!("/api/tasks/{task}/messages"), Some(token)).await;
    assert_eq!(response.status, StatusCode::OK, "{:?}", response.body);
    response.body
}

async fn set_privacy(app: &TestApp, token: &str, body: Value) -> common::Response {
    app.request(Method::PUT, "/api/me/privacy", Some(token), Some(body)).await
}

on_both_backends_and_buses!(
    a_receipt_is_stored_sent_to_the_other_party_and_survives_a_reload,
    typing_reaches_only_the_other_party
);

mod without_live {
    use super::*;
    on_both_backends!(
        bad_reads_are_refused_and_change_nothing,
        turning_receipts_off_hides_them_both_ways_and_keeps_them_stored
    );
}

async fn a_receipt_is_stored_sent_to_the_other_party_and_survives_a_reload(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 8_000).await;
    let (poster, tasker, task) = (&assigned.poster, &assigned.tasker, &assigned.task);
    let poster_id = user_id(&app, poster).await;
    let tasker_id = user_id(&app, tasker).await;
    let poster_topic = format!("user:{poster_id}");
    let mut poster_socket = connect(&app, Some(poster)).await;
    subscribe(&mut poster_socket, &poster_topic).await;
    let first = send(&app, task, poster, "The key is under the mat").await;
    let second = send(&app, task, poster, "Gate code 4411").await;

    let answered = read(&app, task, tasker, json!(first)).await;
    assert_eq!(answered.status, StatusCode::NO_CONTENT, "{:?}", answered.body);
    let live = next_event(&mut poster_socket, &poster_topic, "message.read").await;
    assert_eq!((live["task_id"].as_str(), live["user_id"].as_str()), (Some(task.as_str()), Some(tasker_id.as_str())));
    assert_eq!(live["up_to"], first.as_str());
    assert!(live["at"].as_str().is_some_and(|at| at.ends_with('Z')), "{live}");

    let seen = conversation(&app, task, poster).await;
    assert_eq!(seen["items"].as_array().map(Vec::len), Some(2));
    assert_eq!(seen["read_up_to"], first.as_str(), "the tasker's mark, for the poster");
    assert_eq!(seen["read_at"], live["at"]);
    let own = conversation(&app, task, tasker).await;
    assert_eq!(own["read_up_to"], Value::Null, "the poster has read nothing of the tasker's");

    assert_eq!(read(&app, task, tasker, json!(second)).await.status, StatusCode::NO_CONTENT);
    next_event(&mut poster_socket, &poster_topic, "message.read").await;
    // An older mark (another tab, a late request) never moves the mark back, and says nothing.
    assert_eq!(read(&app, task, tasker, json!(first)).await.status, StatusCode::NO_CONTENT);
    let marker = send(&app, task, tasker, "On my way").await;
    let next = next_json_event(&mut poster_socket).await;
    assert_eq!((next["event"].as_str(), next["data"]["id"].as_str()), (Some("message.created"), Some(marker.as_str())));

    // A reload (a new request, a new socket) still shows it.
    let reloaded = conversation(&app, task, poster).await;
    assert_eq!(reloaded["read_up_to"], second.as_str());
    app
}

/// The next frame of `kind` (the hub first confirms a signed-in socket's own user topic).
async fn next_of_type(socket: &mut common::live::Socket, kind: &str) -> Value {
    loop {
        let message = next_json(socket).await;
        if message["type"] == kind {
            return message;
        }
    }
}

/// The next `event` frame of the socket, whatever its name.
async fn next_json_event(socket: &mut common::live::Socket) -> Value {
    loop {
        let message = next_json(socket).await;
        if message["type"] == "event" {
            return message;
        }
    }
}

async fn bad_reads_are_refused_and_change_nothing(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 8_000).await;
    let (poster, tasker, task) = (&assigned.poster, &assigned.tasker, &assigned.task);
    let message = send(&app, task, poster, "Hello").await;
    let other = assigned_task(&app, 9_000).await;
    let elsewhere = send(&app, &other.task, &other.poster, "Elsewhere").await;
    let stranger = common::market::tasker(&app, "stranger@example.com").await;
    let before = snapshot_table(&app, "message_reads").await;

    let path = format!("/api/tasks/{task}/messages/read");
    let anonymous = app.post(&path, None, json!({ "up_to": message })).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let outsider = read(&app, task, &stranger, json!(message)).await;
    assert_eq!((outsider.status, outsider.error_code()), (StatusCode::FORBIDDEN, "forbidden"));
    let missing = app.post(&path, Some(tasker), json!({})).await;
    assert_eq!(missing.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(missing.field_error("up_to"), "Say which message was read");
    let unknown = read(&app, task, tasker, json!(uuid::Uuid::now_v7())).await;
    assert_eq!(unknown.field_error("up_to"), "There is no such message in this conversation");
    let foreign = read(&app, task, tasker, json!(elsewhere)).await;
    assert_eq!(foreign.field_error("up_to"), "There is no such message in this conversation");
    let garbled = read(&app, task, tasker, json!("not-an-id")).await;
    assert!(garbled.status.is_client_error(), "{:?}", garbled.body);
    let no_task = read(&app, &uuid::Uuid::now_v7().to_string(), tasker, json!(message)).await;
    assert_eq!(no_task.status, StatusCode::NOT_FOUND);

    assert_eq!(snapshot_table(&app, "message_reads").await, before, "refusals store nothing");
    app
}

async fn turning_receipts_off_hides_them_both_ways_and_keeps_them_stored(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 8_000).await;
    let (poster, tasker, task) = (&assigned.poster, &assigned.tasker, &assigned.task);
    let poster_id = user_id(&app, poster).await;
    let defaults = app.get("/api/me/privacy", Some(tasker)).await;
    assert_eq!(defaults.body, json!({ "share_online": true, "share_read_receipts": true }));

    let saved = set_privacy(&app, tasker, json!({ "share_read_receipts": false })).await;
    assert_eq!(saved.status, StatusCode::OK, "{:?}", saved.body);
    assert_eq!(saved.body, json!({ "share_online": true, "share_read_receipts": false }), "the rest is kept");
    let before = snapshot_table(&app, "privacy_settings").await;
    let wrong = set_privacy(&app, tasker, json!({ "share_read_receipts": "please" })).await;
    assert!(wrong.status.is_client_error(), "{:?}", wrong.body);
    assert_eq!(snapshot_table(&app, "privacy_settings").await, before, "a refused change stores nothing");
    assert_eq!(app.get("/api/me/privacy", Some(tasker)).await.body, saved.body);

    let poster_topic = format!("user:{poster_id}");
    let mut poster_socket = connect(&app, Some(poster)).await;
    subscribe(&mut poster_socket, &poster_topic).await;
    let from_poster = send(&app, task, poster, "Gate code 4411").await;
    let from_tasker = send(&app, task, tasker, "Thanks").await;
    assert_eq!(read(&app, task, tasker, json!(from_poster)).await.status, StatusCode::NO_CONTENT);
    assert_eq!(read(&app, task, poster, json!(from_tasker)).await.status, StatusCode::NO_CONTENT);
    let marker = send(&app, task, tasker, "See you").await;
    loop {
        let event = next_json_event(&mut poster_socket).await;
        assert_ne!(event["event"], "message.read", "the tasker shares no receipts");
        if event["data"]["id"] == marker.as_str() {
            break;
        }
    }
    assert_eq!(conversation(&app, task, poster).await["read_up_to"], Value::Null);
    assert_eq!(conversation(&app, task, tasker).await["read_up_to"], Value::Null, "and sees none of the poster's");

    set_privacy(&app, tasker, json!({ "share_read_receipts": true })).await;
    assert_eq!(conversation(&app, task, poster).await["read_up_to"], from_poster.as_str(), "stored all along");
    assert_eq!(conversation(&app, task, tasker).await["read_up_to"], from_tasker.as_str());
    app
}

async fn typing_reaches_only_the_other_party(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 8_000).await;
    let (poster, tasker, task) = (&assigned.poster, &assigned.tasker, &assigned.task);
    let tasker_id = user_id(&app, tasker).await;
    let poster_id = user_id(&app, poster).await;
    let stranger = common::market::tasker(&app, "stranger@example.com").await;
    let mut poster_socket = connect(&app, Some(poster)).await;
    subscribe(&mut poster_socket, &format!("user:{poster_id}")).await;
    let mut stranger_socket = connect(&app, Some(&stranger)).await;
    send_json(&mut stranger_socket, json!({ "type": "typing", "task_id": task })).await;
    let refused = next_of_type(&mut stranger_socket, "error").await;
    assert_eq!((refused["type"].as_str(), refused["code"].as_str()), (Some("error"), Some("forbidden")), "{refused}");

    let mut tasker_socket = connect(&app, Some(tasker)).await;
    send_json(&mut tasker_socket, json!({ "type": "typing", "task_id": task })).await;
    let typing = next_of_type(&mut poster_socket, "typing").await;
    assert_eq!(typing, json!({ "type": "typing", "task_id": task, "user_id": tasker_id }));
    app
}
