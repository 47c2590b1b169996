//! Posting cannot be turned into a push flood, on both backends. The review
//! posted fifty tasks in 0.4 s matching an alert whose owner had registered 20
//! endpoints that never answer; a victim's unrelated push then took 72 s
//! instead of 0.2 s, with every hung push retried 12 times.

use domain::{
    alerts::matching,
    config::Config,
    delivery::{hosts::PER_HOST_IN_FLIGHT, push::HIGH_URGENCY_KINDS},
};
use model::states::NotificationKind;
use store::{
    db::{Timestamp, new_id},
    deliveries,
    notifications::NotificationRow,
};

use crate::common;

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use common::{
    TestApp,
    market::{post_task, poster, task_body, tasker},
    push_fake::{FakeDevice, FakePushService},
};
use reqwest::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

fn small_posting_limits(config: &mut Config) {
    config.task_posts_per_hour = 3;
    config.task_posts_per_client_per_hour = 5;
}

fn small_alert_cap(config: &mut Config) {
    config.task_alerts_poll_secs = 0;
    config.task_alerts_per_user_per_hour = 3;
}

fn fast_delivery(config: &mut Config) {
    config.delivery_poll_interval = Duration::from_millis(20);
}

fn stalled_delivery(config: &mut Config) {
    config.delivery_poll_interval = Duration::from_secs(3600);
}

mod limits {
    use super::*;
    on_both_backends!(config = crate::push_flood::small_posting_limits; posting_is_limited_per_account_and_per_client_address,);
}
mod alert_cap {
    use super::*;
    on_both_backends!(config = crate::push_flood::small_alert_cap; task_alerts_are_capped_per_user_per_hour,);
}
mod fast {
    use super::*;
    on_both_backends!(config = crate::push_flood::fast_delivery; a_push_service_that_never_answers_does_not_hold_up_another_users_push, a_test_push_goes_to_every_device_at_once_within_a_deadline,);
}
mod stalled {
    use super::*;
    on_both_backends!(config = crate::push_flood::stalled_delivery; claims_take_every_users_first_push_before_anyones_second,);
}

fn plumbing_task(n: usize) -> Value {
    let mut body = task_body(&format!("Plumbing job {n}"));
    body["description"] = json!("Fix a leaking tap");
    body
}

async fn task_count(app: &TestApp) -> i64 {
    store::on_pool!(&app.server.state.db, |pool| {
        sqlx::query_scalar::<_, i64>("select count(*) from tasks").fetch_one(pool).await.unwrap()
    })
}

async fn posting_is_limited_per_account_and_per_client_address(app: TestApp) -> TestApp {
    let first = poster(&app, "busy-poster@example.com").await;
    for n in 0..3 {
        assert_eq!(app.post("/api/tasks", Some(&first), plumbing_task(n)).await.status, StatusCode::CREATED);
    }
    let before = task_count(&app).await;
    let fourth = app.post("/api/tasks", Some(&first), plumbing_task(3)).await;
    assert_eq!(fourth.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", fourth.body);
    assert_eq!(fourth.error_code(), "rate_limited");
    assert_eq!(task_count(&app).await, before, "a refused post writes nothing");

    // Another account from the same address: the address has 2 posts left of its 5.
    let second = poster(&app, "housemate@example.com").await;
    for n in 0..2 {
        assert_eq!(app.post("/api/tasks", Some(&second), plumbing_task(n)).await.status, StatusCode::CREATED);
    }
    let sixth = app.post("/api/tasks", Some(&second), plumbing_task(2)).await;
    assert_eq!(sixth.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(task_count(&app).await, before + 2);
    app
}

async fn task_alerts_are_capped_per_user_per_hour(app: TestApp) -> TestApp {
    let watcher = tasker(&app, "watcher@example.com").await;
    let saved = app.post("/api/me/alerts", Some(&watcher), json!({ "q": "plumbing", "categories": [] })).await;
    assert_eq!(saved.status, StatusCode::CREATED, "{:?}", saved.body);
    for (n, email) in ["a@example.com", "b@example.com"].into_iter().enumerate() {
        let token = poster(&app, email).await;
        for m in 0..3 {
            post_task(&app, &token, plumbing_task(n * 3 + m)).await;
        }
    }
    matching::run_pending(&app.server.state).await.unwrap();
    let notifications = app.get("/api/notifications", Some(&watcher)).await.body;
    let alerts = notifications["items"].as_array().unwrap().iter().filter(|n| n["type"] == "task_alert").count();
    assert_eq!(alerts, 3, "six matching posts, three notifications within the hour");
    let listed = app.get("/api/me/alerts", Some(&watcher)).await.body;
    assert_eq!(listed["items"][0]["matched_this_week"], 6, "every match is still recorded");
    app
}

/// A push service that accepts connections and never answers; counts the connections.
async fn hung_push_service() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let connections = Arc::new(AtomicUsize::new(0));
    let counted = connections.clone();
    tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            open.push(socket);
        }
    });
    (origin, connections)
}

async fn user_id(app: &TestApp, token: &str) -> Uuid {
    app.get("/api/me", Some(token)).await.body["user"]["id"].as_str().unwrap().parse().unwrap()
}

async fn subscribe(app: &TestApp, token: &str, device: &FakeDevice) {
    let response = app.post("/api/me/push-subscriptions", Some(token), device.subscription()).await;
    assert_eq!(response.status, StatusCode::CREATED, "{:?}", response.body);
}

/// Writes notifications the way every cause does: through `insert_notification!`, one transaction.
async fn notify(app: &TestApp, user_id: Uuid, kind: NotificationKind, count: usize) -> Vec<Uuid> {
    let rows: Vec<NotificationRow> = (0..count)
        .map(|n| {
            NotificationRow::new(
                user_id,
                kind,
                "New task for you",
                format!("Task {n}"),
                Some(format!("/task/{n}")),
                Timestamp::now(),
            )
        })
        .collect();
    store::on_pool!(&app.server.state.db, |pool| {
        let mut tx = pool.begin().await.unwrap();
        for row in &rows {
            store::insert_notification!(tx, row).unwrap();
        }
        tx.commit().await.unwrap();
    });
    rows.iter().map(|row| row.id).collect()
}

async fn a_push_service_that_never_answers_does_not_hold_up_another_users_push(app: TestApp) -> TestApp {
    let (hung_origin, connections) = hung_push_service().await;
    let attacker = tasker(&app, "hoarder@example.com").await;
    for n in 0..20 {
        subscribe(&app, &attacker, &FakeDevice::new(format!("{hung_origin}/push/sink-{n}"))).await;
    }
    // Fifty posts' worth of alerts: a thousand pushes to endpoints that never answer.
    notify(&app, user_id(&app, &attacker).await, NotificationKind::TaskAlert, 50).await;
    tokio::time::sleep(Duration::from_millis(300)).await;

    let service = FakePushService::start().await;
    let victim = poster(&app, "bystander@example.com").await;
    let device = service.device("victim-phone");
    subscribe(&app, &victim, &device).await;
    let started = Instant::now();
    notify(&app, user_id(&app, &victim).await, NotificationKind::Message, 1).await;
    let received = service.wait_for(1).await;
    let waited = received[0].at.duration_since(started);
    assert!(waited < Duration::from_secs(2), "the victim's push took {waited:?}");
    assert_eq!(device.decrypt(&received[0].body)["type"], "message");
    let held = connections.load(Ordering::SeqCst);
    eprintln!("the victim's push arrived after {waited:?}; the hung host holds {held} connections");
    assert!(held <= PER_HOST_IN_FLIGHT, "the hung host holds {held} connections");
    app
}

async fn claims_take_every_users_first_push_before_anyones_second(app: TestApp) -> TestApp {
    let service = FakePushService::start().await;
    let (many, one) = (tasker(&app, "many@example.com").await, poster(&app, "one@example.com").await);
    subscribe(&app, &many, &service.device("many")).await;
    subscribe(&app, &one, &service.device("one")).await;
    let many_id = user_id(&app, &many).await;
    notify(&app, many_id, NotificationKind::TaskAlert, 30).await;
    notify(&app, many_id, NotificationKind::Offer, 1).await;
    let ones = notify(&app, user_id(&app, &one).await, NotificationKind::TaskAlert, 1).await;

    let state = &app.server.state;
    let now = Timestamp::now().plus(Duration::from_secs(1));
    let claimed =
        deliveries::claim_pushes(&state.db, new_id(), now, now.plus(Duration::from_secs(60)), 2, &HIGH_URGENCY_KINDS)
            .await
            .unwrap();
    let mut kinds: Vec<(&str, bool)> =
        claimed.iter().map(|push| (push.kind.as_str(), push.notification_id == ones[0])).collect();
    kinds.sort();
    assert_eq!(kinds, vec![("offer", false), ("task_alert", true)], "one each, the urgent one first");
    app
}

async fn a_test_push_goes_to_every_device_at_once_within_a_deadline(app: TestApp) -> TestApp {
    let (hung_origin, _) = hung_push_service().await;
    let service = FakePushService::start().await;
    let token = tasker(&app, "tester@example.com").await;
    for n in 0..3 {
        subscribe(&app, &token, &FakeDevice::new(format!("{hung_origin}/push/dead-{n}"))).await;
    }
    subscribe(&app, &token, &service.device("phone")).await;
    let started = Instant::now();
    let answer = app.post("/api/me/push-subscriptions/test", Some(&token), json!({})).await;
    let took = started.elapsed();
    eprintln!("the test push answered after {took:?}");
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    assert_eq!((answer.body["sent"].as_u64(), answer.body["failed"].as_u64()), (Some(1), Some(3)));
    assert!(took < Duration::from_secs(7), "the test push took {took:?}");
    assert_eq!(service.received().len(), 1);
    app
}
