//! What anonymous sockets can take from a node: topic state for tasks that do not exist, every
//! connection slot from one address, and the "N people viewing" of a task (one address counts
//! for a few anonymous viewers at most).

use crate::common;

use common::{
    TestApp,
    live::{Socket, connect, connect_to, expect_close, next_json, send_json, subscribe},
    market::{id, post_task, poster, tasker},
};
use futures_util::StreamExt;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

on_both_backends!(
    subscribing_to_a_task_that_does_not_exist_gets_not_found,
    the_51st_socket_from_one_address_is_closed_with_4029,
    anonymous_sockets_of_one_address_count_as_a_few_viewers,
);

async fn anonymous_sockets_of_one_address_count_as_a_few_viewers(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let topic = format!("task:{}", id(&post_task(&app, &owner, json!({})).await));
    let mut crowd = Vec::new();
    for _ in 0..8 {
        let mut socket = connect_to(&app.server.url(), None).await;
        subscribe(&mut socket, &topic).await;
        crowd.push(socket);
    }
    let helper = tasker(&app, "tasker@example.com").await;
    let mut watcher = connect(&app, Some(&helper)).await;
    send_json(&mut watcher, json!({ "type": "subscribe", "topic": topic })).await;
    let presence = loop {
        let message = next_json(&mut watcher).await;
        if message["type"] == "presence" && message["topic"] == topic.as_str() {
            break message;
        }
    };
    // Eight anonymous sockets from 127.0.0.1 count as three, plus the signed-in tasker.
    assert_eq!((presence["viewers"].as_u64(), presence["taskers"].as_u64()), (Some(4), Some(1)), "{presence}");
    drop(crowd);
    app
}

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
