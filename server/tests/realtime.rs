//! The live connection as a browser uses it: tickets, `/ws`, topics, and
//! delivery across two server nodes through Redis.

use crate::common;

use common::{
    Backend, TestApp, access_token,
    live::{connect_to, expect_close, next_json, send_json, ticket},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

on_both_backends!(visitors_watch_public_topics_only, a_ticket_signs_the_socket_in_once, bad_tickets_close_with_4001,);

async fn visitors_watch_public_topics_only(app: TestApp) -> TestApp {
    let mut socket = connect_to(&app.server.url(), None).await;
    send_json(&mut socket, json!({ "type": "subscribe", "topic": "tasks" })).await;
    let subscribed = next_json(&mut socket).await;
    assert_eq!(subscribed["type"], "subscribed");
    assert_eq!(subscribed["topic"], "tasks");

    let stranger = uuid::Uuid::now_v7();
    send_json(&mut socket, json!({ "type": "subscribe", "topic": format!("user:{stranger}") })).await;
    let refused = next_json(&mut socket).await;
    assert_eq!(refused["type"], "error");
    assert_eq!(refused["code"], "forbidden");

    // The socket stays open and keeps receiving what it may see.
    app.server.state.hub.publish("tasks", "task.updated", &json!({ "id": "x", "status": "assigned" })).await;
    let event = next_json(&mut socket).await;
    assert_eq!(event["type"], "event");
    assert_eq!(event["event"], "task.updated");
    app
}

async fn a_ticket_signs_the_socket_in_once(app: TestApp) -> TestApp {
    let session = app.signed_in_user("live@example.com").await;
    let user_id = session["user"]["id"].as_str().unwrap().to_owned();
    let issued = app.post("/api/realtime/ticket", Some(&access_token(&session)), json!({})).await;
    assert_eq!(issued.body["expires_in"], 30, "tickets live 30 s");
    let ticket = ticket(&app, &access_token(&session)).await;
    let mut socket = connect_to(&app.server.url(), Some(&ticket)).await;
    let subscribed = next_json(&mut socket).await;
    assert_eq!(subscribed["type"], "subscribed");
    assert_eq!(subscribed["topic"], format!("user:{user_id}"));

    app.server.state.hub.publish(&format!("user:{user_id}"), "notification.created", &json!({ "title": "Hi" })).await;
    let event = next_json(&mut socket).await;
    assert_eq!(event["event"], "notification.created");
    assert_eq!(event["data"]["title"], "Hi");

    // Used once, the ticket is spent.
    let mut reused = connect_to(&app.server.url(), Some(&ticket)).await;
    expect_close(&mut reused, 4001).await;
    assert_eq!(app.post("/api/realtime/ticket", None, json!({})).await.status, StatusCode::UNAUTHORIZED);
    app
}

async fn bad_tickets_close_with_4001(app: TestApp) -> TestApp {
    let mut socket = connect_to(&app.server.url(), Some("not-a-ticket")).await;
    expect_close(&mut socket, 4001).await;
    app
}

/// Two nodes sharing Postgres and Redis: what one node publishes reaches a socket on the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    any(taskhub_skip_postgres, taskhub_skip_redis),
    ignore = "TASKHUB_SKIP_POSTGRES or TASKHUB_SKIP_REDIS is set"
)]
async fn events_cross_nodes_through_redis() {
    let redis_url = common::redis_url();
    common::run(
        Backend::Postgres,
        |config| config.redis_url = Some(domain::config::Secret::new(redis_url.clone())),
        |node_a| async move {
            let mut node_b_config = node_a.server.state.config.as_ref().clone();
            node_b_config.bind_addr = "127.0.0.1:0".into();
            let node_b = server::start(node_b_config).await.expect("second node starts");

            let session = node_a.signed_in_user("cluster@example.com").await;
            let user_id = session["user"]["id"].as_str().unwrap().to_owned();
            // Ticket issued by node B, redeemed on node A: tickets are shared through the database.
            let ticket = node_a
                .client
                .post(format!("{}/api/realtime/ticket", node_b.url()))
                .bearer_auth(access_token(&session))
                .send()
                .await
                .unwrap();
            let ticket = ticket.json::<Value>().await.unwrap()["ticket"].as_str().unwrap().to_owned();
            let mut socket = connect_to(&node_a.server.url(), Some(&ticket)).await;
            assert_eq!(next_json(&mut socket).await["type"], "subscribed");

            node_b
                .state
                .hub
                .publish(&format!("user:{user_id}"), "notification.created", &json!({ "title": "From B" }))
                .await;
            let event = next_json(&mut socket).await;
            assert_eq!(event["data"]["title"], "From B");
            let ready = reqwest::get(format!("{}/readyz", node_b.url())).await.unwrap().json::<Value>().await.unwrap();
            assert_eq!(ready["bus"], "redis");
            node_b.shutdown().await.unwrap();
            node_a
        },
    )
    .await;
}
