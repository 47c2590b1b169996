//! The per-user limits no other test reached, on both backends: a poster
//! invites at most 30 taskers an hour (the 31st is a 429 that notifies nobody),
//! and a user sends at most 5 test pushes a minute.

use domain::rate_limit::INVITATIONS_PER_POSTER;

use crate::common;

use common::{
    TestApp, access_token,
    market::{id, post_task, poster},
};
use reqwest::StatusCode;
use serde_json::json;

async fn notification_count(app: &TestApp, token: &str) -> usize {
    app.get("/api/notifications?limit=100", Some(token)).await.body["items"].as_array().unwrap().len()
}

async fn a_poster_invites_at_most_thirty_taskers_an_hour(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let tasker_session = app.signed_in_tasker("tasker@example.com").await;
    let tasker = access_token(&tasker_session);
    let tasker_id = tasker_session["user"]["id"].as_str().unwrap().to_owned();
    let allowed = INVITATIONS_PER_POSTER.max as usize;
    assert_eq!(allowed, 30);
    for n in 0..=allowed {
        let task = id(&post_task(&app, &poster, json!({ "title": format!("Shelves {n}") })).await);
        let invited =
            app.post(&format!("/api/tasks/{task}/invitations"), Some(&poster), json!({ "tasker_id": tasker_id })).await;
        if n < allowed {
            assert_eq!(invited.status, StatusCode::CREATED, "invitation {n}: {:?}", invited.body);
        } else {
            assert_eq!(invited.status, StatusCode::TOO_MANY_REQUESTS, "invitation {n}: {:?}", invited.body);
            assert_eq!(invited.error_code(), "rate_limited");
        }
    }
    assert_eq!(notification_count(&app, &tasker).await, allowed, "the refused invitation notified nobody");
    app
}

async fn a_user_sends_at_most_five_test_pushes_a_minute(app: TestApp) -> TestApp {
    let token = access_token(&app.signed_in_user("user@example.com").await);
    for n in 0..5 {
        let sent = app.post("/api/me/push-subscriptions/test", Some(&token), json!({})).await;
        assert_eq!(sent.status, StatusCode::OK, "test push {n}: {:?}", sent.body);
        assert_eq!((sent.body["sent"].as_i64(), sent.body["failed"].as_i64()), (Some(0), Some(0)));
    }
    let refused = app.post("/api/me/push-subscriptions/test", Some(&token), json!({})).await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", refused.body);
    assert_eq!(refused.error_code(), "rate_limited");
    let other = access_token(&app.signed_in_user("other@example.com").await);
    let theirs = app.post("/api/me/push-subscriptions/test", Some(&other), json!({})).await;
    assert_eq!(theirs.status, StatusCode::OK, "each user has their own budget");
    app
}

on_both_backends!(a_poster_invites_at_most_thirty_taskers_an_hour, a_user_sends_at_most_five_test_pushes_a_minute);
