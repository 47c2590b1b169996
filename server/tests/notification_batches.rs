//! Notifications written many at once (`WriteNotifications`, the alert matcher's path) owe
//! exactly the outbox rows that writing them one by one (`insert_notification!`) owes: a push per
//! device when the user's push choice for the kind is on, an email line when their email choice
//! is on, per kind defaults otherwise. On both backends.

use model::states::NotificationKind;
use store::{
    db::Timestamp,
    notifications::{NotificationRow, WriteNotifications},
};

use crate::common;

use common::{TestApp, access_token, push_fake::FakeDevice};
use reqwest::{Method, StatusCode};
use serde_json::json;
use uuid::Uuid;

on_both_backends!(many_at_once_owe_the_same_pushes_and_emails_as_one_by_one);

async fn user(app: &TestApp, email: &str, devices: usize, settings: serde_json::Value) -> Uuid {
    let token = access_token(&app.signed_in_user(email).await);
    for device in 0..devices {
        let device = FakeDevice::new(format!("http://127.0.0.1:9/push/{email}/{device}"));
        let response = app.post("/api/me/push-subscriptions", Some(&token), device.subscription()).await;
        assert_eq!(response.status, StatusCode::CREATED, "{:?}", response.body);
    }
    let saved = app.request(Method::PUT, "/api/me/notification-settings", Some(&token), Some(settings)).await;
    assert_eq!(saved.status, StatusCode::OK, "{:?}", saved.body);
    let me = app.get("/api/me", Some(&token)).await;
    me.body["user"]["id"].as_str().unwrap().parse().unwrap()
}

/// (pushes, email lines) owed for one notification.
async fn owed(app: &TestApp, notification: Uuid) -> (i64, i64) {
    store::on_pool!(&app.server.state.db, |pool| {
        let pushes: i64 = sqlx::query_scalar("select count(*) from push_deliveries where notification_id = $1")
            .bind(notification)
            .fetch_one(pool)
            .await
            .unwrap();
        let emails: i64 = sqlx::query_scalar("select count(*) from email_deliveries where notification_id = $1")
            .bind(notification)
            .fetch_one(pool)
            .await
            .unwrap();
        (pushes, emails)
    })
}

async fn many_at_once_owe_the_same_pushes_and_emails_as_one_by_one(app: TestApp) -> TestApp {
    // Defaults: push on for every kind, email on for offers but off for task alerts.
    let two_devices = user(&app, "two.devices@example.com", 2, json!({})).await;
    let alerts_by_email_only = user(
        &app,
        "email.only@example.com",
        1,
        json!({ "push": { "task_alert": false }, "email": { "task_alert": true } }),
    )
    .await;
    let no_device = user(&app, "no.device@example.com", 0, json!({ "email": { "offer": false } })).await;

    let now = Timestamp::now();
    let cases = [
        (two_devices, NotificationKind::TaskAlert, (2, 0)),
        (two_devices, NotificationKind::Offer, (2, 1)),
        (alerts_by_email_only, NotificationKind::TaskAlert, (0, 1)),
        (alerts_by_email_only, NotificationKind::Offer, (1, 1)),
        (no_device, NotificationKind::TaskAlert, (0, 0)),
        (no_device, NotificationKind::Offer, (0, 0)),
    ];
    let row =
        |user: Uuid, kind: NotificationKind| NotificationRow::new(user, kind, "Title", "Message".into(), None, now);
    let one_by_one: Vec<NotificationRow> = cases.iter().map(|(user, kind, _)| row(*user, *kind)).collect();
    let at_once: Vec<NotificationRow> = cases.iter().map(|(user, kind, _)| row(*user, *kind)).collect();
    store::on_pool!(&app.server.state.db, |pool| {
        let mut tx = pool.begin().await.unwrap();
        for notification in &one_by_one {
            store::insert_notification!(tx, notification).unwrap();
        }
        assert_eq!(tx.insert_notifications(&at_once).await.unwrap(), cases.len() as u64);
        tx.commit().await.unwrap();
    });

    for ((single, batched), (_, kind, expected)) in one_by_one.iter().zip(&at_once).zip(&cases) {
        assert_eq!(owed(&app, single.id).await, *expected, "one by one: {kind}");
        assert_eq!(owed(&app, batched.id).await, *expected, "at once: {kind}");
    }
    app
}
