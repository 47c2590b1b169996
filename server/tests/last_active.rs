//! "Last active" tells what a person did, to the day, and only if they share it (security review
//! 3: with `share_online: false` the public profile still showed `last_active_at` to the second,
//! moved by every token refresh). One row per way the profile is read: signed out, by another
//! user, and by the person themselves.

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{
    TestApp, access_token,
    market::{post_task, poster},
};

on_both_backends!(last_active_is_a_day_shared_by_choice_and_moved_only_by_activity);

const DAY_MS: i64 = 24 * 3600 * 1000;

async fn last_active(app: &TestApp, user_id: &str, token: Option<&str>) -> Value {
    app.get(&format!("/api/profiles/{user_id}"), token).await.body["last_active_at"].clone()
}

async fn last_active_is_a_day_shared_by_choice_and_moved_only_by_activity(app: TestApp) -> TestApp {
    // Someone who only signed in (and refreshed): no activity to show.
    let session = app.signed_in_user("quiet@example.com").await;
    let quiet = access_token(&session);
    let quiet_id = app.get("/api/me", Some(&quiet)).await.body["user"]["id"].as_str().unwrap().to_owned();
    let refreshed = app.post("/api/auth/refresh", None, json!({ "refresh_token": session["refresh_token"] })).await;
    assert_eq!(refreshed.status, reqwest::StatusCode::OK);
    assert_eq!(last_active(&app, &quiet_id, None).await, Value::Null, "a sign-in or a refresh is no activity");

    // Someone who posted: the day they did, at midnight UTC.
    let active = poster(&app, "active@example.com").await;
    let active_id = app.get("/api/me", Some(&active)).await.body["user"]["id"].as_str().unwrap().to_owned();
    post_task(&app, &active, json!({})).await;
    let shown = last_active(&app, &active_id, None).await;
    let at =
        time::OffsetDateTime::parse(shown.as_str().expect("a day"), &time::format_description::well_known::Rfc3339)
            .unwrap();
    let ms = (at.unix_timestamp_nanos() / 1_000_000) as i64;
    assert_eq!(ms % DAY_MS, 0, "rounded to the day: {shown}");
    assert_eq!(at.date(), time::OffsetDateTime::now_utc().date());

    // Not shared: nobody sees it, signed out, signed in, or themselves on the public profile.
    let hidden =
        app.request(Method::PUT, "/api/me/privacy", Some(&active), Some(json!({ "share_online": false }))).await;
    assert_eq!(hidden.status, reqwest::StatusCode::OK, "{:?}", hidden.body);
    for reader in [None, Some(quiet.as_str()), Some(active.as_str())] {
        assert_eq!(last_active(&app, &active_id, reader).await, Value::Null, "share_online is off");
    }
    app
}
