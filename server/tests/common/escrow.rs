//! Escrow helpers: accept & pay through the sandbox, read payments, ledger
//! and provider calls straight from the store, and audit the ledger payment
//! by payment.

use domain::payments::webhook;
use reqwest::{StatusCode, header};
use serde_json::{Value, json};
use store::{db::Timestamp, ledger, payments, provider_calls};
use uuid::Uuid;

use super::{
    Response, TestApp,
    market::{id, make_offer, post_task, poster, tasker},
};

pub async fn checkout(app: &TestApp, token: &str, task: &str, offer: &str) -> (String, String) {
    let response =
        app.post("/api/payments/checkout-session", Some(token), json!({ "task_id": task, "offer_id": offer })).await;
    assert_eq!(response.status, StatusCode::OK, "{:?}", response.body);
    (response.body["session_id"].as_str().unwrap().to_owned(), response.body["url"].as_str().unwrap().to_owned())
}

/// Pays on the sandbox page; returns where Pay redirected.
pub async fn pay(app: &TestApp, url: &str) -> String {
    let response =
        app.client.post(url).form(&[("action", "pay"), ("card_number", "4242 4242 4242 4242")]).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    response.headers()[header::LOCATION].to_str().unwrap().to_owned()
}

pub async fn verify(app: &TestApp, token: &str, session: &str, task: &str, offer: &str) -> Response {
    app.post("/api/payments/verify", Some(token), json!({ "session_id": session, "task_id": task, "offer_id": offer }))
        .await
}

pub async fn task_status(app: &TestApp, task: &str) -> String {
    app.get(&format!("/api/tasks/{task}"), None).await.body["status"].as_str().unwrap().to_owned()
}

pub async fn notification_titles(app: &TestApp, token: &str) -> Vec<String> {
    let page = app.get("/api/notifications", Some(token)).await.body;
    page["items"].as_array().unwrap().iter().map(|n| n["title"].as_str().unwrap().to_owned()).collect()
}

/// The messages of `token`'s notifications titled `title`, newest first.
pub async fn notification_messages(app: &TestApp, token: &str, title: &str) -> Vec<String> {
    let page = app.get("/api/notifications", Some(token)).await.body;
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["title"] == title)
        .map(|n| n["message"].as_str().unwrap().to_owned())
        .collect()
}

/// Posts a raw webhook delivery with its `Stripe-Signature` header.
pub async fn deliver_webhook(app: &TestApp, body: &str, signature: &str) -> Response {
    let response = app
        .client
        .post(app.url("/api/payments/webhook"))
        .header("content-type", "application/json")
        .header("stripe-signature", signature)
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    TestApp::read(response).await
}

/// Delivers `event`, signed now with `secret` as Stripe would.
pub async fn send_webhook(app: &TestApp, secret: &str, event: &Value) -> Response {
    let body = event.to_string();
    let signature = webhook::sign(body.as_bytes(), secret, Timestamp::now().0 / 1000);
    deliver_webhook(app, &body, &signature).await
}

/// An assigned task: poster's and tasker's tokens, task and offer ids.
pub struct Assigned {
    pub poster: String,
    pub tasker: String,
    pub task: String,
    pub offer: String,
}

/// A task with one offer accepted and paid, between a new poster and tasker.
pub async fn assigned_task(app: &TestApp, amount_cents: i64) -> Assigned {
    let poster = poster(app, &format!("poster-{}@example.com", Uuid::now_v7().simple())).await;
    let tasker = tasker(app, &format!("tasker-{}@example.com", Uuid::now_v7().simple())).await;
    assign(app, &poster, &tasker, amount_cents).await
}

/// A new task of `poster`'s, assigned to `tasker` at `amount_cents` and paid.
pub async fn assign(app: &TestApp, poster: &str, tasker: &str, amount_cents: i64) -> Assigned {
    let task = id(&post_task(app, poster, json!({})).await);
    let offer = id(&make_offer(app, tasker, &task, amount_cents).await);
    let (session, url) = checkout(app, poster, &task, &offer).await;
    pay(app, &url).await;
    let verified = verify(app, poster, &session, &task, &offer).await;
    assert_eq!(verified.body["success"], true, "{:?}", verified.body);
    Assigned { poster: poster.to_owned(), tasker: tasker.to_owned(), task, offer }
}

pub fn uuid(text: &str) -> Uuid {
    text.parse().expect("a uuid")
}

/// The task's payments, oldest first.
pub async fn payments_of(app: &TestApp, task: &str) -> Vec<payments::PaymentRow> {
    payments::payments_for_task(&app.server.state.db, uuid(task)).await.unwrap()
}

/// The task's one payment that bought it.
pub async fn kept_payment(app: &TestApp, task: &str) -> payments::PaymentRow {
    let all = payments_of(app, task).await;
    all.into_iter().find(|p| p.held_at.is_some()).expect("a payment that was held")
}

pub async fn calls_of(app: &TestApp, payment: Uuid) -> Vec<provider_calls::ProviderCallRow> {
    provider_calls::for_payment(&app.server.state.db, payment).await.unwrap()
}

/// Every payment's ledger rows match its status, and escrow balances.
pub async fn assert_ledger_audits(app: &TestApp) {
    let mismatches = ledger::audit(&app.server.state.db).await.unwrap();
    assert!(mismatches.is_empty(), "ledger rows that do not match their payment: {mismatches:#?}");
    let check = ledger::escrow_check(&app.server.state.db).await.unwrap();
    assert!(check.balances(), "{check:?}");
}
