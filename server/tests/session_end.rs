//! What a session opened ends with it (issue 21): signing out, refresh token
//! reuse and a password reset close the session's live sockets (4001, within
//! 5 s, on every node) and remove the push devices it added; a reset removes
//! every device of the account, an attacker's among them.

use crate::common;

use std::time::{Duration, Instant};

use common::{
    TestApp, access_token,
    escrow::assign,
    live::{Socket, connect, connect_to, expect_close, next_event, next_json, ticket},
    market::poster,
    push_fake::{FakeDevice, FakePushService},
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

on_both_backends_and_buses!(
    signing_out_closes_that_sessions_sockets_only,
    a_password_reset_closes_every_socket_of_the_account,
    refresh_token_reuse_closes_the_sessions_sockets,
    a_ticket_from_before_sign_out_opens_no_socket,
);

mod devices {
    use super::*;
    on_both_backends!(
        a_device_added_with_a_stolen_access_token_is_gone_after_a_reset_and_receives_nothing,
        signing_out_removes_the_devices_that_session_added,
        refresh_token_reuse_removes_the_sessions_devices,
    );
}

/// The deadline the issue sets for closing an ended session's sockets.
const CLOSE_WITHIN: Duration = Duration::from_secs(5);

async fn login(app: &TestApp, email: &str, password: &str) -> Value {
    let session = app.post("/api/auth/login", None, json!({ "email": email, "password": password })).await;
    assert_eq!(session.status, StatusCode::OK, "{:?}", session.body);
    session.body
}

fn user_topic(session: &Value) -> String {
    format!("user:{}", session["user"]["id"].as_str().unwrap())
}

/// A signed-in socket, once it is subscribed to its own topic.
async fn live_socket(app: &TestApp, session: &Value) -> Socket {
    let mut socket = connect(app, Some(&access_token(session))).await;
    let subscribed = next_json(&mut socket).await;
    assert_eq!(
        (subscribed["type"].as_str(), subscribed["topic"].as_str()),
        (Some("subscribed"), Some(&*user_topic(session)))
    );
    socket
}

async fn send_message(app: &TestApp, poster: &str, task: &str, body: &str) {
    let sent = app.post(&format!("/api/tasks/{task}/messages"), Some(poster), json!({ "body": body })).await;
    assert_eq!(sent.status, StatusCode::CREATED, "{:?}", sent.body);
}

/// The message and its notification reach the socket.
async fn receives_message(socket: &mut Socket, topic: &str, body: &str) {
    let message = next_event(socket, topic, "message.created").await;
    assert_eq!(message["body"], body);
    let notification = next_event(socket, topic, "notification.created").await;
    assert!(notification["message"].as_str().unwrap().contains(body), "{notification}");
}

async fn closed_in_time(socket: &mut Socket, since: Instant) {
    expect_close(socket, 4001).await;
    assert!(since.elapsed() < CLOSE_WITHIN, "closed after {:?}", since.elapsed());
}

/// A tasker signed in twice (two sessions), assigned a task of a poster who writes to them.
struct Parties {
    poster: String,
    task: String,
    first: Value,
    second: Value,
}

async fn parties(app: &TestApp) -> Parties {
    let poster = poster(app, "poster@example.com").await;
    let first = app.signed_in_tasker("tasker@example.com").await;
    let second = login(app, "tasker@example.com", "correct horse").await;
    let assigned = assign(app, &poster, &access_token(&first), 9000).await;
    Parties { poster, task: assigned.task, first, second }
}

async fn signing_out_closes_that_sessions_sockets_only(app: TestApp) -> TestApp {
    let Parties { poster, task, first, second } = parties(&app).await;
    let topic = user_topic(&first);
    let mut signed_out = live_socket(&app, &first).await;
    let mut other_session = live_socket(&app, &second).await;
    send_message(&app, &poster, &task, "Key is under the mat").await;
    receives_message(&mut signed_out, &topic, "Key is under the mat").await;
    receives_message(&mut other_session, &topic, "Key is under the mat").await;

    let started = Instant::now();
    let logout = app.post("/api/auth/logout", None, json!({ "refresh_token": first["refresh_token"] })).await;
    assert_eq!(logout.status, StatusCode::NO_CONTENT);
    closed_in_time(&mut signed_out, started).await;

    send_message(&app, &poster, &task, "Alarm code 4821").await;
    receives_message(&mut other_session, &topic, "Alarm code 4821").await;
    app
}

async fn a_password_reset_closes_every_socket_of_the_account(app: TestApp) -> TestApp {
    let Parties { poster, task, first, second } = parties(&app).await;
    let topic = user_topic(&first);
    let mut sockets = [live_socket(&app, &first).await, live_socket(&app, &second).await];
    send_message(&app, &poster, &task, "Before the reset").await;
    for socket in &mut sockets {
        receives_message(socket, &topic, "Before the reset").await;
    }

    let asked = app.post("/api/auth/recover", None, json!({ "email": "tasker@example.com" })).await;
    assert_eq!(asked.status, StatusCode::ACCEPTED);
    let link = app.token_mailed_to("tasker@example.com", "Reset").await;
    let started = Instant::now();
    let reset = app.post("/api/auth/reset", None, json!({ "token": link, "password": "a new password" })).await;
    assert_eq!(reset.status, StatusCode::OK, "{:?}", reset.body);
    for socket in &mut sockets {
        closed_in_time(socket, started).await;
    }
    app
}

async fn refresh_token_reuse_closes_the_sessions_sockets(app: TestApp) -> TestApp {
    let Parties { poster, task, first, second } = parties(&app).await;
    let topic = user_topic(&first);
    let mut stolen = live_socket(&app, &first).await;
    let mut other_session = live_socket(&app, &second).await;
    let rotated = app.post("/api/auth/refresh", None, json!({ "refresh_token": first["refresh_token"] })).await;
    assert_eq!(rotated.status, StatusCode::OK);

    let started = Instant::now();
    let reused = app.post("/api/auth/refresh", None, json!({ "refresh_token": first["refresh_token"] })).await;
    assert_eq!(reused.status, StatusCode::UNAUTHORIZED, "{:?}", reused.body);
    closed_in_time(&mut stolen, started).await;

    send_message(&app, &poster, &task, "Still here").await;
    receives_message(&mut other_session, &topic, "Still here").await;
    app
}

async fn a_ticket_from_before_sign_out_opens_no_socket(app: TestApp) -> TestApp {
    let session = app.signed_in_user("sam@example.com").await;
    let ticket = ticket(&app, &access_token(&session)).await;
    let logout = app.post("/api/auth/logout", None, json!({ "refresh_token": session["refresh_token"] })).await;
    assert_eq!(logout.status, StatusCode::NO_CONTENT);
    let mut socket = connect_to(&app.server.url(), Some(&ticket)).await;
    expect_close(&mut socket, 4001).await;
    app
}

async fn add_device(app: &TestApp, token: &str, device: &FakeDevice) {
    let added = app.post("/api/me/push-subscriptions", Some(token), device.subscription()).await;
    assert_eq!(added.status, StatusCode::CREATED, "{:?}", added.body);
}

async fn device_endpoints(app: &TestApp, token: &str) -> Vec<String> {
    let listed = app.get("/api/me/push-subscriptions", Some(token)).await;
    assert_eq!(listed.status, StatusCode::OK, "{:?}", listed.body);
    listed.body["items"].as_array().unwrap().iter().map(|item| item["endpoint"].as_str().unwrap().to_owned()).collect()
}

/// The review's reproduction: with a 15-minute access token the attacker registers a device of
/// their own; the victim resets the password; the device is gone and gets nothing more.
async fn a_device_added_with_a_stolen_access_token_is_gone_after_a_reset_and_receives_nothing(app: TestApp) -> TestApp {
    let push_service = FakePushService::start().await;
    let poster = poster(&app, "poster@example.com").await;
    let victim = app.signed_in_tasker("victim@example.com").await;
    let task = assign(&app, &poster, &access_token(&victim), 9000).await.task;
    let attackers = push_service.device("attacker");
    add_device(&app, &access_token(&victim), &attackers).await;
    send_message(&app, &poster, &task, "Before the reset").await;
    push_service.wait_for(1).await;

    let asked = app.post("/api/auth/recover", None, json!({ "email": "victim@example.com" })).await;
    assert_eq!(asked.status, StatusCode::ACCEPTED);
    let link = app.token_mailed_to("victim@example.com", "Reset").await;
    let reset = app.post("/api/auth/reset", None, json!({ "token": link, "password": "a new password" })).await;
    assert_eq!(reset.status, StatusCode::OK);

    let victim = login(&app, "victim@example.com", "a new password").await;
    assert!(device_endpoints(&app, &access_token(&victim)).await.is_empty(), "the reset removed every device");
    let own_phone = push_service.device("victim-phone");
    add_device(&app, &access_token(&victim), &own_phone).await;
    send_message(&app, &poster, &task, "Key is under the mat, alarm code 4821").await;
    let received = push_service.wait_for(2).await;
    let after_reset: Vec<_> = received[1..].iter().map(|push| push.device.as_str()).collect();
    assert_eq!(after_reset, ["victim-phone"], "only the victim's own device is pushed to");
    let decrypted = own_phone.decrypt(&received[1].body);
    assert!(decrypted["message"].as_str().unwrap().contains("alarm code 4821"), "{decrypted}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(push_service.received().len(), 2, "nothing more reached the attacker's device");
    app
}

async fn signing_out_removes_the_devices_that_session_added(app: TestApp) -> TestApp {
    let first = app.signed_in_user("sam@example.com").await;
    let second = login(&app, "sam@example.com", "correct horse").await;
    let push_service = FakePushService::start().await;
    let (laptop, phone) = (push_service.device("laptop"), push_service.device("phone"));
    add_device(&app, &access_token(&first), &laptop).await;
    add_device(&app, &access_token(&second), &phone).await;

    let logout = app.post("/api/auth/logout", None, json!({ "refresh_token": first["refresh_token"] })).await;
    assert_eq!(logout.status, StatusCode::NO_CONTENT);
    assert_eq!(device_endpoints(&app, &access_token(&second)).await, [phone.endpoint.as_str()]);
    let removal = json!({ "endpoint": phone.endpoint });
    let removed =
        app.request(Method::DELETE, "/api/me/push-subscriptions", Some(&access_token(&second)), Some(removal)).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT);
    app
}

async fn refresh_token_reuse_removes_the_sessions_devices(app: TestApp) -> TestApp {
    let first = app.signed_in_user("sam@example.com").await;
    let second = login(&app, "sam@example.com", "correct horse").await;
    let push_service = FakePushService::start().await;
    let (stolen, phone) = (push_service.device("stolen"), push_service.device("phone"));
    add_device(&app, &access_token(&first), &stolen).await;
    add_device(&app, &access_token(&second), &phone).await;
    let rotated = app.post("/api/auth/refresh", None, json!({ "refresh_token": first["refresh_token"] })).await;
    assert_eq!(rotated.status, StatusCode::OK);
    let reused = app.post("/api/auth/refresh", None, json!({ "refresh_token": first["refresh_token"] })).await;
    assert_eq!(reused.status, StatusCode::UNAUTHORIZED);
    assert_eq!(device_endpoints(&app, &access_token(&second)).await, [phone.endpoint.as_str()]);
    app
}
