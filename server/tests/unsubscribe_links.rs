//! Unsubscribe links are bearer tokens in mail: they carry their issue date and
//! stop working after 60 days (issue 21); within that window one click works
//! without signing in.

use domain::delivery::digest::UNSUBSCRIBE_LINK_TTL;
use store::db::Timestamp;

use crate::common;

use std::time::Duration;

use common::{TestApp, access_token};
use reqwest::StatusCode;
use serde_json::json;
use uuid::Uuid;

on_both_backends!(an_unsubscribe_link_works_for_sixty_days_then_no_more);

const DAY: Duration = Duration::from_secs(24 * 3600);

async fn one_click(app: &TestApp, token: &str) -> common::Response {
    app.post(&format!("/api/unsubscribe?token={token}"), None, json!({})).await
}

async fn an_unsubscribe_link_works_for_sixty_days_then_no_more(app: TestApp) -> TestApp {
    let session = app.signed_in_user("user@example.com").await;
    let token = access_token(&session);
    let user: Uuid = session["user"]["id"].as_str().unwrap().parse().unwrap();
    let tokens = &app.server.state.delivery.unsubscribe;
    assert_eq!(UNSUBSCRIBE_LINK_TTL, 60 * DAY);

    let expired = tokens.token(user, Timestamp::now().minus(UNSUBSCRIBE_LINK_TTL + DAY));
    let refused = one_click(&app, &expired).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{:?}", refused.body);
    assert!(refused.body["error"]["message"].as_str().unwrap().contains("expired"), "{:?}", refused.body);
    let page = app.client.get(app.url(&format!("/unsubscribe?token={expired}"))).send().await.unwrap();
    assert!(page.text().await.unwrap().contains("Link not valid"));
    let settings = app.get("/api/me/notification-settings", Some(&token)).await.body;
    assert_eq!(settings["email"]["offer"], true, "an expired link changes nothing");

    let old_but_valid = tokens.token(user, Timestamp::now().minus(UNSUBSCRIBE_LINK_TTL - DAY));
    assert_eq!(one_click(&app, &old_but_valid).await.status, StatusCode::OK);
    let settings = app.get("/api/me/notification-settings", Some(&token)).await.body;
    assert!(settings["email"].as_object().unwrap().values().all(|on| on == false), "{settings:?}");
    app
}
