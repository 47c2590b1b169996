//! What anonymous sockets can take from a node: topic state for tasks that do not exist, and
//! every connection slot from one address.

use crate::common;

use common::{
    TestApp,
    live::{Socket, connect_to, expect_close, next_json, send_json, subscribe},
    market::{id, post_task, poster},
};
use futures_util::StreamExt;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

on_both_backends!(
    subscribing_to_a_task_that_does_not_exist_gets_not_found,
    the_51st_socket_from_one_address_is_closed_with_4029
);

async fn pong(socket: &mut Socket) {
    send_json(socket, json!({ "type": "ping" })).await;
    assert_eq!(next_json(socket).await["type"], "pong");
}

async fn subscribing_to_a_task_that_does_not_exist_gets_not_found(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    let task_topic = format!("task:{}", id(&post_task(&app, &token, json!({})).await));
    let mut socket = connect_to(&app.server.url(), None).await;
    let topics_before = app.server.state.hub.topic_count();

    for topic in [format!("task:{}", uuid::Uuid::now_v7()), "task:not-a-task".to_owned()] {
        send_json(&mut socket, json!({ "type": "subscribe", "topic": topic })).await;
        let refused = next_json(&mut socket).await;
        assert_eq!((refused["type"].as_str(), refused["code"].as_str()), (Some("error"), Some("not_found")));
        assert_eq!(refused["topic"], topic);
    }
    assert_eq!(app.server.state.hub.topic_count(), topics_before, "no state kept for them");

    // The socket stays open for topics that do exist.
    subscribe(&mut socket, &task_topic).await;
    subscribe(&mut socket, "tasks").await;
    pong(&mut socket).await;
    app
}

async fn the_51st_socket_from_one_address_is_closed_with_4029(app: TestApp) -> TestApp {
    let url = app.server.url();
    let mut sockets = Vec::new();
    for _ in 0..50 {
        let mut socket = connect_to(&url, None).await;
        pong(&mut socket).await;
        sockets.push(socket);
    }
    let mut refused = connect_to(&url, None).await;
    expect_close(&mut refused, 4029).await;
    for socket in &mut sockets[..3] {
        pong(socket).await;
    }

    // A closed socket gives its slot back.
    let mut first = sockets.remove(0);
    first.close(None).await.unwrap();
    while first.next().await.is_some() {}
    let mut attempts = 0;
    loop {
        let mut socket = connect_to(&url, None).await;
        send_json(&mut socket, json!({ "type": "ping" })).await;
        match socket.next().await {
            Some(Ok(Message::Text(text))) if text.contains("pong") => break,
            _ if attempts < 100 => attempts += 1,
            other => panic!("the freed slot was not given back: {other:?}"),
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    app
}
