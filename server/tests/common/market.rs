//! Marketplace helpers: task bodies, posting, offering.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{TestApp, access_token};

/// A UTC date `days` from today, as the task form sends it.
pub fn date_in(days: i64) -> String {
    let date = time::OffsetDateTime::now_utc().date() + time::Duration::days(days);
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}

pub fn task_body(title: &str) -> Value {
    json!({
        "title": title,
        "description": "Two flat-pack wardrobes need assembling",
        "category_id": 2,
        "location": "Newtown NSW",
        "budget_cents": 12000,
        "due_date": date_in(3),
    })
}

/// Posts a task (with `changes` merged into the default body) and returns it.
pub async fn post_task(app: &TestApp, token: &str, changes: Value) -> Value {
    let mut body = task_body("Assemble wardrobes");
    if let (Some(body), Some(changes)) = (body.as_object_mut(), changes.as_object()) {
        body.extend(changes.clone());
    }
    let response = app.post("/api/tasks", Some(token), body).await;
    assert_eq!(response.status, StatusCode::CREATED, "{:?}", response.body);
    response.body
}

pub async fn make_offer(app: &TestApp, token: &str, task_id: &str, amount_cents: i64) -> Value {
    let response = app
        .post(
            &format!("/api/tasks/{task_id}/offers"),
            Some(token),
            json!({ "amount_cents": amount_cents, "message": "I can do it tomorrow" }),
        )
        .await;
    assert_eq!(response.status, StatusCode::CREATED, "{:?}", response.body);
    response.body
}

/// A verified, signed-in customer's access token.
pub async fn poster(app: &TestApp, email: &str) -> String {
    access_token(&app.signed_in_user(email).await)
}

/// A verified, signed-in tasker's access token.
pub async fn tasker(app: &TestApp, email: &str) -> String {
    access_token(&app.signed_in_tasker(email).await)
}

pub fn id(value: &Value) -> String {
    value["id"].as_str().expect("an id").to_owned()
}

/// Holds every pooled connection while `during` runs, so requests queue for the database.
pub async fn holding_the_pool<T>(app: &TestApp, during: impl std::future::Future<Output = T>) -> T {
    store::on_pool!(&app.server.state.db, |pool| {
        let mut held = Vec::new();
        for _ in 0..pool.options().get_max_connections() {
            held.push(pool.acquire().await.unwrap());
        }
        let result = during.await;
        drop(held);
        result
    })
}
