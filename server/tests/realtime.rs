//! The live connection as a browser uses it: tickets, `/ws`, topics, and
//! delivery across two server nodes through Redis.

mod common;

use std::time::Duration;

use common::{Backend, TestApp, access_token};
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async, tungstenite::Message};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

on_both_backends!(
    visitors_watch_public_topics_only,
    a_ticket_signs_the_socket_in_once,
    bad_tickets_close_with_4001,
);

async fn connect(app: &TestApp, ticket: Option<&str>) -> Socket {
    let base = app.url("/ws").replacen("http://", "ws://", 1);
    let url = match ticket {
        Some(ticket) => format!("{base}?ticket={ticket}"),
        None => base,
    };
    connect_async(url).await.expect("websocket connects").0
}

async fn next_json(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("a message within 5 s")
            .expect("socket open")
            .expect("valid frame");
        match message {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Close(frame) => panic!("closed: {frame:?}"),
            _ => continue,
        }
    }
}

async fn send(socket: &mut Socket, value: Value) {
    socket.send(Message::Text(value.to_string().into())).await.unwrap();
}

async fn ticket(app: &TestApp, session: &Value) -> String {
    let response = app.post("/api/realtime/ticket", Some(&access_token(session)), json!({})).await;
    assert_eq!(response.status, StatusCode::OK);
    assert_eq!(response.body["expires_in"], 30);
    response.body["ticket"].as_str().unwrap().to_owned()
}

async fn visitors_watch_public_topics_only(app: TestApp) -> TestApp {
    let mut socket = connect(&app, None).await;
    send(&mut socket, json!({ "type": "subscribe", "topic": "tasks" })).await;
    let subscribed = next_json(&mut socket).await;
    assert_eq!(subscribed["type"], "subscribed");
    assert_eq!(subscribed["topic"], "tasks");

    let stranger = uuid::Uuid::now_v7();
    send(&mut socket, json!({ "type": "subscribe", "topic": format!("user:{stranger}") })).await;
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
    let ticket = ticket(&app, &session).await;
    let mut socket = connect(&app, Some(&ticket)).await;
    let subscribed = next_json(&mut socket).await;
    assert_eq!(subscribed["type"], "subscribed");
    assert_eq!(subscribed["topic"], format!("user:{user_id}"));

    app.server.state.hub.publish(&format!("user:{user_id}"), "notification.created", &json!({ "title": "Hi" })).await;
    let event = next_json(&mut socket).await;
    assert_eq!(event["event"], "notification.created");
    assert_eq!(event["data"]["title"], "Hi");

    // Used once, the ticket is spent.
    let mut reused = connect(&app, Some(&ticket)).await;
    assert_close_code(&mut reused, 4001).await;
    assert_eq!(app.post("/api/realtime/ticket", None, json!({})).await.status, StatusCode::UNAUTHORIZED);
    app
}

async fn bad_tickets_close_with_4001(app: TestApp) -> TestApp {
    let mut socket = connect(&app, Some("not-a-ticket")).await;
    assert_close_code(&mut socket, 4001).await;
    app
}

async fn assert_close_code(socket: &mut Socket, code: u16) {
    loop {
        match tokio::time::timeout(Duration::from_secs(5), socket.next()).await.expect("closed within 5 s") {
            Some(Ok(Message::Close(Some(frame)))) => {
                assert_eq!(u16::from(frame.code), code);
                return;
            }
            Some(Ok(Message::Close(None))) | None | Some(Err(_)) => panic!("closed without code {code}"),
            Some(Ok(_)) => continue,
        }
    }
}

/// Two nodes sharing Postgres and Redis: what one node publishes reaches a socket on the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_cross_nodes_through_redis() {
    let Some(redis_url) = common::redis_url() else { return };
    common::run(Backend::Postgres, |config| config.redis_url = Some(server::config::Secret::new(redis_url.clone())), |node_a| async move {
        let mut node_b_config = node_a.server.state.config.as_ref().clone();
        node_b_config.bind_addr = "127.0.0.1:0".into();
        let node_b = server::start(node_b_config).await.expect("second node starts");

        let session = node_a.signed_in_user("cluster@example.com").await;
        let user_id = session["user"]["id"].as_str().unwrap().to_owned();
        // Ticket issued by node B, redeemed on node A: tickets are shared through the database.
        let ticket = node_a.client.post(format!("{}/api/realtime/ticket", node_b.url())).bearer_auth(access_token(&session)).send().await.unwrap();
        let ticket = ticket.json::<Value>().await.unwrap()["ticket"].as_str().unwrap().to_owned();
        let mut socket = connect(&node_a, Some(&ticket)).await;
        assert_eq!(next_json(&mut socket).await["type"], "subscribed");

        node_b.state.hub.publish(&format!("user:{user_id}"), "notification.created", &json!({ "title": "From B" })).await;
        let event = next_json(&mut socket).await;
        assert_eq!(event["data"]["title"], "From B");
        let ready = reqwest::get(format!("{}/readyz", node_b.url())).await.unwrap().json::<Value>().await.unwrap();
        assert_eq!(ready["bus"], "redis");
        node_b.shutdown().await.unwrap();
        node_a
    })
    .await;
}
