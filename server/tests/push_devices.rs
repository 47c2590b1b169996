//! Who may add a push device, and where it may point (issue 21): only the
//! browsers' push services (`PUSH_ALLOWED_HOSTS`), never another account's
//! device, and the account's owner hears of each new one by mail.

use crate::common;

use common::{
    TestApp, access_token,
    market::{make_offer, post_task, tasker},
    push_fake::FakeDevice,
    rows,
};
use reqwest::StatusCode;
use serde_json::{Value, json};

on_both_backends!(
    endpoints_must_be_on_a_browsers_push_service,
    another_accounts_device_cannot_be_taken_over,
    the_owner_is_mailed_when_a_device_is_added,
    a_failed_push_never_records_its_endpoint,
);

async fn add(app: &TestApp, token: &str, endpoint: &str) -> common::Response {
    app.post("/api/me/push-subscriptions", Some(token), FakeDevice::new(endpoint.into()).subscription()).await
}

async fn endpoints(app: &TestApp, token: &str) -> Vec<Value> {
    app.get("/api/me/push-subscriptions", Some(token)).await.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["endpoint"].clone())
        .collect()
}

async fn endpoints_must_be_on_a_browsers_push_service(app: TestApp) -> TestApp {
    let token = access_token(&app.signed_in_user("user@example.com").await);
    for endpoint in [
        "https://attacker.example.net/collect",
        "https://93.184.215.14/push",
        "https://fcm.googleapis.com.attacker.example.net/x",
        "https://notify.windows.com/x",
    ] {
        let refused = add(&app, &token, endpoint).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{endpoint}: {:?}", refused.body);
        assert_eq!(refused.field_error("endpoint"), "Push endpoint must belong to a browser's push service");
    }
    assert!(endpoints(&app, &token).await.is_empty());
    for endpoint in [
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/abc",
        "https://web.push.apple.com/QGxv",
    ] {
        let added = add(&app, &token, endpoint).await;
        assert_eq!(added.status, StatusCode::CREATED, "{endpoint}: {:?}", added.body);
    }
    assert_eq!(endpoints(&app, &token).await.len(), 3);
    app
}

async fn another_accounts_device_cannot_be_taken_over(app: TestApp) -> TestApp {
    let owner = access_token(&app.signed_in_user("owner@example.com").await);
    let other = access_token(&app.signed_in_user("other@example.com").await);
    let endpoint = "https://fcm.googleapis.com/fcm/send/owners-phone";
    assert_eq!(add(&app, &owner, endpoint).await.status, StatusCode::CREATED);
    let before = rows::snapshot_table(&app, "push_subscriptions").await;

    let taken = add(&app, &other, endpoint).await;
    assert_eq!(taken.status, StatusCode::CONFLICT, "{:?}", taken.body);
    assert_eq!(taken.error_code(), "conflict");
    assert_eq!(
        rows::snapshot_table(&app, "push_subscriptions").await,
        before,
        "the device stays the owner's, keys and all"
    );
    assert_eq!(endpoints(&app, &owner).await, [json!(endpoint)]);
    assert!(endpoints(&app, &other).await.is_empty());
    // Its owner may still refresh it (new keys from the same browser).
    assert_eq!(add(&app, &owner, endpoint).await.status, StatusCode::CREATED);
    app
}

async fn device_mails(app: &TestApp, to: &str) -> Vec<Value> {
    app.mailbox()
        .await
        .into_iter()
        .filter(|mail| mail["to"] == to && mail["subject"] == "A new device gets your Taskhub notifications")
        .collect()
}

async fn the_owner_is_mailed_when_a_device_is_added(app: TestApp) -> TestApp {
    let token = access_token(&app.signed_in_user("user@example.com").await);
    let endpoint = "https://fcm.googleapis.com/fcm/send/secret-capability";
    let mut labelled = FakeDevice::new(endpoint.into()).subscription();
    labelled["label"] = json!("Pixel 8");
    assert_eq!(
        app.post("/api/me/push-subscriptions", Some(&token), labelled.clone()).await.status,
        StatusCode::CREATED
    );
    let mut mails = Vec::new();
    for _ in 0..100 {
        mails = device_mails(&app, "user@example.com").await;
        if !mails.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(mails.len(), 1, "one mail about the new device");
    let text = mails[0]["text"].as_str().unwrap();
    assert!(text.contains("Pixel 8") && text.contains("fcm.googleapis.com"), "{text}");
    assert!(text.contains("/forgot-password") && text.contains("/settings/notifications"), "{text}");
    assert!(!text.contains("secret-capability"), "the endpoint is a capability: never mailed in full: {text}");

    // Refreshing the same device is not news.
    assert_eq!(app.post("/api/me/push-subscriptions", Some(&token), labelled).await.status, StatusCode::CREATED);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(device_mails(&app, "user@example.com").await.len(), 1);
    app
}

/// An endpoint is a capability URL: a failure's `last_error` (and the log) names no more than
/// the push service's host.
async fn a_failed_push_never_records_its_endpoint(app: TestApp) -> TestApp {
    let token = access_token(&app.signed_in_user("user@example.com").await);
    // Nothing listens on the discard port: every attempt fails to connect.
    let endpoint = "http://127.0.0.1:9/push/capability-secret";
    assert_eq!(add(&app, &token, endpoint).await.status, StatusCode::CREATED);
    let task = post_task(&app, &token, json!({})).await;
    let tasker = tasker(&app, "tasker@example.com").await;
    make_offer(&app, &tasker, task["id"].as_str().unwrap(), 9000).await;

    let mut deliveries = Vec::new();
    for _ in 0..200 {
        deliveries = rows::snapshot_table(&app, "push_deliveries").await;
        if deliveries.iter().any(|row| row.contains("unreachable")) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(deliveries.iter().any(|row| row.contains("unreachable")), "the push was tried: {deliveries:?}");
    assert!(deliveries.iter().all(|row| !row.contains("capability-secret")), "{deliveries:?}");
    app
}
