//! Payment transitions reach open browsers after commit: `payment.updated`,
//! `notification.created` and `message.created` on the parties' `user:{id}`,
//! `task.updated` on `task:{id}` and the public `tasks` feed. On both databases,
//! with the in-process bus and through Redis.

use crate::common;

use common::{
    TestApp, access_token,
    live::{connect, next_event_where, subscribe},
    market::{id, make_offer, post_task},
};
use serde_json::json;

on_both_backends_and_buses!(paying_and_messaging_reach_both_parties_and_the_task_watchers);

async fn paying_and_messaging_reach_both_parties_and_the_task_watchers(app: TestApp) -> TestApp {
    let poster_session = app.signed_in_user("poster@example.com").await;
    let poster = access_token(&poster_session);
    let poster_id = poster_session["user"]["id"].as_str().unwrap().to_owned();
    let tasker_session = app.signed_in_tasker("tasker@example.com").await;
    let tasker = access_token(&tasker_session);
    let tasker_id = tasker_session["user"]["id"].as_str().unwrap().to_owned();
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &tasker, &task, 9_100).await);

    let mut visitor = connect(&app, None).await;
    let task_topic = format!("task:{task}");
    subscribe(&mut visitor, &task_topic).await;
    subscribe(&mut visitor, "tasks").await;
    let (poster_topic, tasker_topic) = (format!("user:{poster_id}"), format!("user:{tasker_id}"));
    let mut poster_socket = connect(&app, Some(&poster)).await;
    subscribe(&mut poster_socket, &poster_topic).await;
    let mut tasker_socket = connect(&app, Some(&tasker)).await;
    subscribe(&mut tasker_socket, &tasker_topic).await;

    let session =
        app.post("/api/payments/checkout-session", Some(&poster), json!({ "task_id": task, "offer_id": offer })).await;
    let pending =
        next_event_where(&mut visitor, &task_topic, "task.updated", |d| d["status"] == "pending_payment").await;
    assert_eq!(pending["id"], task.as_str());
    let url = session.body["url"].as_str().unwrap();
    app.client.post(url).form(&[("action", "pay"), ("card_number", "4242424242424242")]).send().await.unwrap();
    let verify = json!({ "session_id": session.body["session_id"], "task_id": task, "offer_id": offer });
    assert_eq!(app.post("/api/payments/verify", Some(&poster), verify).await.body["success"], true);

    next_event_where(&mut visitor, &task_topic, "task.updated", |d| d["status"] == "assigned").await;
    next_event_where(&mut visitor, "tasks", "task.updated", |d| d["status"] == "assigned" && d["id"] == task.as_str())
        .await;
    let held = next_event_where(&mut tasker_socket, &tasker_topic, "payment.updated", |d| d["status"] == "held").await;
    assert_eq!((held["amount_cents"].as_i64(), held["fee_cents"].as_i64()), (Some(9_100), Some(910)));
    next_event_where(&mut tasker_socket, &tasker_topic, "notification.created", |d| d["title"] == "Offer accepted")
        .await;
    next_event_where(&mut poster_socket, &poster_topic, "payment.updated", |d| d["status"] == "held").await;

    app.post(&format!("/api/tasks/{task}/messages"), Some(&poster), json!({ "body": "See you at 9" })).await;
    let message = next_event_where(&mut tasker_socket, &tasker_topic, "message.created", |_| true).await;
    assert_eq!(message["body"], "See you at 9");
    next_event_where(&mut poster_socket, &poster_topic, "message.created", |_| true).await;

    app.post(&format!("/api/tasks/{task}/release"), Some(&poster), json!({})).await;
    next_event_where(&mut tasker_socket, &tasker_topic, "payment.updated", |d| d["status"] == "released").await;
    next_event_where(&mut visitor, &task_topic, "task.updated", |d| d["status"] == "completed").await;
    app
}
