//! Web Push and email digests through the delivery outbox (docs/architecture.md, decision
//! 9), against a fake push service that decrypts what it receives.

use domain::config::Config;
use model::states::NotificationKind;
use store::{db::Timestamp, deliveries, notifications::NotificationRow};

use crate::common;

use std::time::Duration;

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use common::{
    TestApp, access_token,
    market::{make_offer, post_task, tasker},
    push_fake::{FakeDevice, FakePushService},
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

/// Workers look for due rows every 20 ms instead of 500; devices may also be on push.example.com
/// (the fake push service itself is on loopback, which dev mode allows).
fn fast_delivery(config: &mut Config) {
    config.delivery_poll_interval = Duration::from_millis(20);
    config.push_allowed_hosts.push("push.example.com".into());
}

/// The worker looks once at start-up and then not for an hour: a node that "dies" before sending.
fn stalled_delivery(config: &mut Config) {
    config.delivery_poll_interval = Duration::from_secs(3600);
}

mod fast {
    use super::*;

    on_both_backends!(config = fast_delivery;
    a_new_offer_is_pushed_encrypted_and_signed,
    a_gone_subscription_is_forgotten,
    an_unavailable_push_service_is_retried_after_its_retry_after,
    two_nodes_send_each_push_exactly_once,
    kinds_turned_off_are_not_pushed,
    subscriptions_must_point_at_a_public_push_service,
    devices_are_listed_and_removed_per_user,
    notification_settings_default_and_save_per_kind,
    unread_notifications_are_mailed_in_one_hourly_digest,
    one_click_unsubscribe_works_without_signing_in,
    );
}

mod stalled {
    use super::*;

    on_both_backends!(config = stalled_delivery;
    a_push_committed_before_a_crash_is_sent_after_restart,
    a_claimed_push_whose_node_died_is_sent_when_the_lease_ends,
    );
}

async fn user_id(app: &TestApp, token: &str) -> Uuid {
    let me = app.get("/api/me", Some(token)).await;
    me.body["user"]["id"].as_str().unwrap().parse().unwrap()
}

async fn subscribe(app: &TestApp, token: &str, device: &FakeDevice) -> Value {
    let response = app.post("/api/me/push-subscriptions", Some(token), device.subscription()).await;
    assert_eq!(response.status, StatusCode::CREATED, "{:?}", response.body);
    response.body
}

/// Writes a notification the way every cause does: through `insert_notification!` in a transaction.
async fn notify(app: &TestApp, user_id: Uuid, kind: NotificationKind, title: &str) -> Uuid {
    let row =
        NotificationRow::new(user_id, kind, title, format!("About {title}"), Some("/tasks/x".into()), Timestamp::now());
    store::on_pool!(&app.server.state.db, |pool| {
        let mut tx = pool.begin().await.unwrap();
        store::insert_notification!(tx, &row).unwrap();
        tx.commit().await.unwrap();
    });
    row.id
}

async fn push_rows(app: &TestApp, notification_id: Uuid) -> Vec<(Uuid, String, i32)> {
    deliveries::pushes_for(&app.server.state.db, notification_id).await.unwrap()
}

async fn wait_for_push_status(app: &TestApp, notification_id: Uuid, status: &str) -> Vec<(Uuid, String, i32)> {
    for _ in 0..500 {
        let rows = push_rows(app, notification_id).await;
        if !rows.is_empty() && rows.iter().all(|(_, row_status, _)| row_status == status) {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the pushes of {notification_id} never became {status}: {:?}", push_rows(app, notification_id).await);
}

/// Pushes one more notification and waits until it arrived, so that a worker has passed over the
/// outbox since: a push that was going to be sent twice would have been by then. Returns its id.
async fn push_marker(app: &TestApp, user_id: Uuid, service: &FakePushService, device: &FakeDevice) -> Uuid {
    let marker = notify(app, user_id, NotificationKind::Offer, "Marker").await;
    for _ in 0..500 {
        let pushes = service.received();
        if pushes.iter().any(|push| device.decrypt(&push.body)["id"] == marker.to_string()) {
            return marker;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the marker push never arrived");
}

async fn a_new_offer_is_pushed_encrypted_and_signed(app: TestApp) -> TestApp {
    let push_service = FakePushService::start().await;
    let poster = app.signed_in_user("poster@example.com").await;
    let poster_token = access_token(&poster);
    let phone = push_service.device("poster-phone");
    subscribe(&app, &poster_token, &phone).await;
    let task = post_task(&app, &poster_token, json!({})).await;
    let tasker_token = tasker(&app, "tasker@example.com").await;
    make_offer(&app, &tasker_token, task["id"].as_str().unwrap(), 9000).await;

    let received = push_service.wait_for(1).await;
    let push = &received[0];
    assert_eq!(push.device, "poster-phone");
    let payload = phone.decrypt(&push.body);
    let notifications = app.get("/api/notifications", Some(&poster_token)).await.body;
    let notification = &notifications["items"][0];
    assert_eq!(payload["type"], "offer");
    for field in ["id", "type", "title", "message", "link", "created_at"] {
        assert_eq!(payload[field], notification[field], "{field}");
    }
    assert_eq!(push.headers["content-encoding"], "aes128gcm");
    assert_eq!(push.headers["ttl"], "86400");
    assert_eq!(push.headers["urgency"], "high");
    let topic = push.headers["topic"].to_str().unwrap();
    assert!(topic.len() <= 32 && !topic.is_empty(), "{topic}");

    // VAPID (RFC 8292): "vapid t=<ES256 JWT>, k=<our public key>", aud the push service's origin, exp ≤ 12 h.
    let authorization = push.headers["authorization"].to_str().unwrap();
    let (token, key) =
        authorization.strip_prefix("vapid t=").and_then(|rest| rest.split_once(", k=")).expect("a vapid authorization");
    let public_key = app.get("/api/push/public-key", None).await.body["key"].as_str().unwrap().to_owned();
    assert_eq!(key, public_key);
    let point = URL_SAFE_NO_PAD.decode(key).unwrap();
    let decoding_key = jsonwebtoken::DecodingKey::from_ec_components(
        &URL_SAFE_NO_PAD.encode(&point[1..33]),
        &URL_SAFE_NO_PAD.encode(&point[33..65]),
    )
    .unwrap();
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
    validation.set_audience(&[&push_service.origin]);
    let claims = jsonwebtoken::decode::<Value>(token, &decoding_key, &validation).expect("a valid signature").claims;
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let exp = claims["exp"].as_i64().unwrap();
    assert!(exp > now && exp <= now + 12 * 3600, "exp {exp} now {now}");
    assert_eq!(claims["sub"], app.server.state.config.vapid_subject.as_str());
    assert!(claims["sub"].as_str().unwrap().starts_with("mailto:"));

    let id: Uuid = notification["id"].as_str().unwrap().parse().unwrap();
    let rows = wait_for_push_status(&app, id, "sent").await;
    assert_eq!(rows[0].2, 1, "one attempt");
    app
}

async fn a_gone_subscription_is_forgotten(app: TestApp) -> TestApp {
    let push_service = FakePushService::start().await;
    let token = access_token(&app.signed_in_user("user@example.com").await);
    let user = user_id(&app, &token).await;
    subscribe(&app, &token, &push_service.device("old-laptop")).await;
    push_service.answer_next(410, None);

    notify(&app, user, NotificationKind::Message, "New message").await;
    push_service.wait_for(1).await;
    for _ in 0..500 {
        let devices = app.get("/api/me/push-subscriptions", Some(&token)).await.body;
        if devices["items"].as_array().unwrap().is_empty() {
            let another = notify(&app, user, NotificationKind::Message, "Another message").await;
            assert_eq!(push_rows(&app, another).await, vec![], "no push is owed to a gone device");
            assert_eq!(push_service.received().len(), 1, "nothing more goes to a gone device");
            return app;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the gone subscription was kept");
}

async fn an_unavailable_push_service_is_retried_after_its_retry_after(app: TestApp) -> TestApp {
    let push_service = FakePushService::start().await;
    let token = access_token(&app.signed_in_user("user@example.com").await);
    let user = user_id(&app, &token).await;
    let device = push_service.device("phone");
    subscribe(&app, &token, &device).await;
    push_service.answer_next(503, Some(1));

    let id = notify(&app, user, NotificationKind::Payment, "Payment received").await;
    let received = push_service.wait_for(2).await;
    assert!(received[1].at - received[0].at >= Duration::from_millis(900), "waited for Retry-After");
    assert_eq!(device.decrypt(&received[1].body)["id"], id.to_string());
    let rows = wait_for_push_status(&app, id, "sent").await;
    assert_eq!(rows[0].2, 2, "two attempts");
    push_marker(&app, user, &push_service, &device).await;
    assert_eq!(push_service.received().len(), 3, "retried once, not again after success");
    app
}

async fn two_nodes_send_each_push_exactly_once(app: TestApp) -> TestApp {
    let mut config = app.server.state.config.as_ref().clone();
    config.bind_addr = "127.0.0.1:0".into();
    let second_node = server::start(config).await.expect("second node starts");
    let push_service = FakePushService::start().await;
    let token = access_token(&app.signed_in_user("user@example.com").await);
    let user = user_id(&app, &token).await;
    let device = push_service.device("phone");
    subscribe(&app, &token, &device).await;

    const PUSHES: usize = 150;
    let mut ids = Vec::new();
    for n in 0..PUSHES {
        ids.push(notify(&app, user, NotificationKind::Offer, &format!("Offer {n}")).await.to_string());
    }
    let received = push_service.wait_for(PUSHES).await;
    for id in &ids {
        wait_for_push_status(&app, id.parse().unwrap(), "sent").await;
    }
    ids.push(push_marker(&app, user, &push_service, &device).await.to_string());
    let mut pushed: Vec<String> = push_service
        .received()
        .iter()
        .map(|push| device.decrypt(&push.body)["id"].as_str().unwrap().to_owned())
        .collect();
    pushed.sort();
    ids.sort();
    assert_eq!(pushed, ids, "every notification pushed once ({} arrived at first)", received.len());
    second_node.shutdown().await.unwrap();
    app
}

/// Stops `app`'s node (its worker never sent anything) and starts one with a working worker on the same database.
async fn replace_with_working_node(mut app: TestApp) -> TestApp {
    let mut config = app.server.state.config.as_ref().clone();
    config.bind_addr = "127.0.0.1:0".into();
    fast_delivery(&mut config);
    let working = server::start(config).await.expect("a working node starts");
    let stalled = std::mem::replace(&mut app.server, working);
    stalled.shutdown().await.unwrap();
    app
}

async fn a_push_committed_before_a_crash_is_sent_after_restart(app: TestApp) -> TestApp {
    let push_service = FakePushService::start().await;
    let token = access_token(&app.signed_in_user("user@example.com").await);
    let user = user_id(&app, &token).await;
    let device = push_service.device("phone");
    subscribe(&app, &token, &device).await;
    // Committed on a node whose worker does not get to it before the node goes down.
    let id = notify(&app, user, NotificationKind::Offer, "New offer").await;
    let rows = push_rows(&app, id).await;
    assert!(rows.iter().all(|(_, status, attempts)| status == "pending" && *attempts == 0), "{rows:?}");
    assert!(push_service.received().is_empty());

    let app = replace_with_working_node(app).await;
    let received = push_service.wait_for(1).await;
    assert_eq!(device.decrypt(&received[0].body)["id"], id.to_string());
    wait_for_push_status(&app, id, "sent").await;
    app
}

async fn a_claimed_push_whose_node_died_is_sent_when_the_lease_ends(app: TestApp) -> TestApp {
    let push_service = FakePushService::start().await;
    let token = access_token(&app.signed_in_user("user@example.com").await);
    let user = user_id(&app, &token).await;
    let device = push_service.device("phone");
    subscribe(&app, &token, &device).await;
    let id = notify(&app, user, NotificationKind::Offer, "New offer").await;
    // A node claims it for two seconds and dies before sending.
    let claimed_at = std::time::Instant::now();
    let now = Timestamp::now();
    let (lease, urgent) = (now.plus(Duration::from_secs(2)), &domain::delivery::push::HIGH_URGENCY_KINDS);
    let claimed = deliveries::claim_pushes(&app.server.state.db, Uuid::now_v7(), now, lease, 10, urgent).await.unwrap();
    assert_eq!(claimed.len(), 1);

    let app = replace_with_working_node(app).await;
    let received = push_service.wait_for(1).await;
    assert!(received[0].at - claimed_at >= Duration::from_millis(1500), "not taken over before the lease ended");
    let rows = wait_for_push_status(&app, id, "sent").await;
    assert_eq!(rows[0].2, 1);
    push_marker(&app, user, &push_service, &device).await;
    assert_eq!(push_service.received().len(), 2, "sent once, then only the marker");
    app
}

async fn kinds_turned_off_are_not_pushed(app: TestApp) -> TestApp {
    let push_service = FakePushService::start().await;
    let token = access_token(&app.signed_in_user("user@example.com").await);
    let user = user_id(&app, &token).await;
    subscribe(&app, &token, &push_service.device("phone")).await;
    let saved = app
        .request(
            Method::PUT,
            "/api/me/notification-settings",
            Some(&token),
            Some(json!({ "push": { "message": false } })),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{:?}", saved.body);

    let silent = notify(&app, user, NotificationKind::Message, "New message").await;
    let pushed = notify(&app, user, NotificationKind::Offer, "New offer").await;
    wait_for_push_status(&app, pushed, "sent").await;
    assert!(push_rows(&app, silent).await.is_empty());
    assert_eq!(push_service.received().len(), 1);
    app
}

async fn subscriptions_must_point_at_a_public_push_service(app: TestApp) -> TestApp {
    let token = access_token(&app.signed_in_user("user@example.com").await);
    for endpoint in [
        "http://push.example.com/x",
        "https://10.1.2.3/push",
        "https://169.254.169.254/latest/meta-data",
        "https://[fd00::1]/push",
        "https://192.168.0.10/push",
        "not a url",
    ] {
        let mut body = FakeDevice::new(endpoint.into()).subscription();
        body["endpoint"] = json!(endpoint);
        let response = app.post("/api/me/push-subscriptions", Some(&token), body).await;
        assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{endpoint}");
        assert_eq!(response.field_error("endpoint"), "Push endpoint must be an https:// URL on a public address");
    }
    let mut bad_keys = FakeDevice::new("https://push.example.com/1".into()).subscription();
    bad_keys["keys"] = json!({ "p256dh": "short", "auth": 12 });
    let response = app.post("/api/me/push-subscriptions", Some(&token), bad_keys).await;
    assert_eq!(response.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", response.body);
    let good_keys = FakeDevice::new("https://push.example.com/1".into()).subscription();
    let mut no_auth = good_keys.clone();
    no_auth["keys"]["auth"] = json!("AAAA");
    let response = app.post("/api/me/push-subscriptions", Some(&token), no_auth).await;
    assert_eq!(response.field_error("keys.auth"), "keys.auth must be the subscription's 16-byte secret");
    assert_eq!(app.post("/api/me/push-subscriptions", None, good_keys).await.status, StatusCode::UNAUTHORIZED);
    app
}

async fn devices_are_listed_and_removed_per_user(app: TestApp) -> TestApp {
    let first = access_token(&app.signed_in_user("first@example.com").await);
    let second = access_token(&app.signed_in_user("second@example.com").await);
    let phone = FakeDevice::new("https://push.example.com/phone".into());
    let laptop = FakeDevice::new("https://push.example.com/laptop".into());
    let mut labelled = phone.subscription();
    labelled["label"] = json!("Pixel 8");
    assert_eq!(
        app.post("/api/me/push-subscriptions", Some(&first), labelled.clone()).await.status,
        StatusCode::CREATED
    );
    // Idempotent per endpoint.
    assert_eq!(app.post("/api/me/push-subscriptions", Some(&first), labelled).await.status, StatusCode::CREATED);
    subscribe(&app, &first, &laptop).await;
    let devices = app.get("/api/me/push-subscriptions", Some(&first)).await.body;
    let items = devices["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "{devices:?}");
    assert!(items.iter().any(|item| item["label"] == "Pixel 8"));
    assert!(items.iter().all(|item| item.get("p256dh").is_none() && item.get("keys").is_none()));
    assert!(app.get("/api/me/push-subscriptions", Some(&second)).await.body["items"].as_array().unwrap().is_empty());

    // Someone else cannot remove my device.
    let removal = json!({ "endpoint": phone.endpoint });
    let response =
        app.request(Method::DELETE, "/api/me/push-subscriptions", Some(&second), Some(removal.clone())).await;
    assert_eq!(response.status, StatusCode::NO_CONTENT);
    assert_eq!(app.get("/api/me/push-subscriptions", Some(&first)).await.body["items"].as_array().unwrap().len(), 2);
    let response = app.request(Method::DELETE, "/api/me/push-subscriptions", Some(&first), Some(removal)).await;
    assert_eq!(response.status, StatusCode::NO_CONTENT);
    let left = app.get("/api/me/push-subscriptions", Some(&first)).await.body;
    assert_eq!(left["items"].as_array().unwrap().len(), 1);
    assert_eq!(left["items"][0]["endpoint"], laptop.endpoint.as_str());
    app
}

async fn notification_settings_default_and_save_per_kind(app: TestApp) -> TestApp {
    let token = access_token(&app.signed_in_user("user@example.com").await);
    assert_eq!(app.get("/api/me/notification-settings", None).await.status, StatusCode::UNAUTHORIZED);
    let defaults = app.get("/api/me/notification-settings", Some(&token)).await;
    assert_eq!(defaults.status, StatusCode::OK);
    for kind in ["offer", "message", "payment", "dispute", "reminder", "task", "task_alert"] {
        assert_eq!(defaults.body["push"][kind], true, "push {kind}");
    }
    assert_eq!(defaults.body["email"]["offer"], true);
    assert_eq!(defaults.body["email"]["task_alert"], false);

    let saved = app
        .request(
            Method::PUT,
            "/api/me/notification-settings",
            Some(&token),
            Some(json!({ "email": { "task_alert": true, "offer": false }, "push": { "reminder": false } })),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{:?}", saved.body);
    let now = app.get("/api/me/notification-settings", Some(&token)).await.body;
    assert_eq!(now, saved.body);
    assert_eq!(now["email"]["task_alert"], true);
    assert_eq!(now["email"]["offer"], false);
    assert_eq!(now["email"]["message"], true, "kinds left out keep their setting");
    assert_eq!(now["push"]["reminder"], false);

    let unknown = app
        .request(Method::PUT, "/api/me/notification-settings", Some(&token), Some(json!({ "push": { "spam": true } })))
        .await;
    assert_eq!(unknown.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(unknown.field_error("push.spam"), "Unknown notification type: spam");
    let not_bool = app
        .request(
            Method::PUT,
            "/api/me/notification-settings",
            Some(&token),
            Some(json!({ "push": { "offer": "yes" } })),
        )
        .await;
    assert_eq!(not_bool.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", not_bool.body);
    app
}

/// The digest mail in the dev mailbox (the `.eml` with its headers, and the summary).
async fn digests_to(app: &TestApp, to: &str) -> Vec<Value> {
    app.mailbox()
        .await
        .into_iter()
        .filter(|mail| mail["to"] == to && mail["subject"].as_str().unwrap().starts_with("Taskhub:"))
        .collect()
}

fn eml(app: &TestApp, id: &str) -> String {
    let path = domain::mail::mailbox_dir(&app.server.state.config.data_dir).join(format!("{id}.eml"));
    std::fs::read_to_string(path).unwrap()
}

async fn digest_pass(app: &TestApp, at: Timestamp) -> usize {
    domain::delivery::digest::pass(&app.server.state.delivery_handles(), at).await.unwrap()
}

async fn unread_notifications_are_mailed_in_one_hourly_digest(app: TestApp) -> TestApp {
    let token = access_token(&app.signed_in_user("user@example.com").await);
    let user = user_id(&app, &token).await;
    let read = notify(&app, user, NotificationKind::Offer, "Offer you already saw").await;
    assert_eq!(
        app.post(&format!("/api/notifications/{read}/read"), Some(&token), json!({})).await.status,
        StatusCode::NO_CONTENT
    );
    notify(&app, user, NotificationKind::Offer, "New offer from Sam").await;
    notify(&app, user, NotificationKind::Message, "New message from Alex").await;
    notify(&app, user, NotificationKind::TaskAlert, "New task near you").await; // email off by default

    // Nothing before EMAIL_DELAY (10 minutes by default) has passed.
    assert_eq!(digest_pass(&app, Timestamp::now()).await, 0);
    let later = Timestamp::now().plus(Duration::from_secs(11 * 60));
    assert_eq!(digest_pass(&app, later).await, 1);
    let digests = digests_to(&app, "user@example.com").await;
    assert_eq!(digests.len(), 1);
    let text = digests[0]["text"].as_str().unwrap();
    assert_eq!(digests[0]["subject"], "Taskhub: 2 new notifications");
    assert!(text.contains("New offer from Sam") && text.contains("New message from Alex"), "{text}");
    assert!(!text.contains("already saw") && !text.contains("New task near you"), "{text}");
    assert!(text.contains("/unsubscribe?token="), "{text}");

    // Within the hour nothing more is mailed; after it, what is new since.
    notify(&app, user, NotificationKind::Payment, "Payment released").await;
    assert_eq!(digest_pass(&app, later.plus(Duration::from_secs(30 * 60))).await, 0);
    assert_eq!(digest_pass(&app, later.plus(Duration::from_secs(61 * 60))).await, 1);
    let digests = digests_to(&app, "user@example.com").await;
    assert_eq!(digests.len(), 2);
    assert_eq!(digests[0]["subject"], "Taskhub: Payment released");
    assert_eq!(digest_pass(&app, later.plus(Duration::from_secs(200 * 60))).await, 0, "each line is mailed once");
    app
}

async fn one_click_unsubscribe_works_without_signing_in(app: TestApp) -> TestApp {
    let token = access_token(&app.signed_in_user("user@example.com").await);
    let user = user_id(&app, &token).await;
    notify(&app, user, NotificationKind::Offer, "New offer from Sam").await;
    assert_eq!(digest_pass(&app, Timestamp::now().plus(Duration::from_secs(11 * 60))).await, 1);
    let digest = digests_to(&app, "user@example.com").await.remove(0);
    let raw = eml(&app, digest["id"].as_str().unwrap());
    assert!(raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"), "{raw}");
    let header = raw.lines().find(|line| line.starts_with("List-Unsubscribe: ")).expect("a List-Unsubscribe header");
    let url = header.trim_start_matches("List-Unsubscribe: <").trim_end_matches('>');
    let path = url.strip_prefix(&app.server.url()).expect("a link to this server");
    assert!(path.starts_with("/api/unsubscribe?token="), "{path}");

    // The visible link opens a page that asks first.
    let page_path = path.replacen("/api/unsubscribe", "/unsubscribe", 1);
    let page = app.client.get(app.url(&page_path)).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("<form method=\"post\""));
    assert_eq!(app.get("/api/me/notification-settings", Some(&token)).await.body["email"]["offer"], true);

    // Mail clients POST "List-Unsubscribe=One-Click" without any session.
    let response = app
        .client
        .post(app.url(path))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let settings = app.get("/api/me/notification-settings", Some(&token)).await.body;
    assert!(settings["email"].as_object().unwrap().values().all(|on| on == false), "{settings:?}");
    assert_eq!(settings["push"]["offer"], true, "push is not touched");

    let forged = app.post("/api/unsubscribe?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", None, json!({})).await;
    assert_eq!(forged.status, StatusCode::BAD_REQUEST);
    assert_eq!(forged.error_code(), "bad_request");
    let missing = app.post("/api/unsubscribe", None, json!({})).await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);

    // Nothing more is mailed once unsubscribed.
    notify(&app, user, NotificationKind::Offer, "Another offer").await;
    assert_eq!(digest_pass(&app, Timestamp::now().plus(Duration::from_secs(3 * 3600))).await, 0);
    app
}
