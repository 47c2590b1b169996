//! What anonymous sockets can take from a node: topic state for tasks that do not exist, and
//! every connection slot from one address.

mod common;

use common::{
    Backend, TestApp,
    live::{Socket, connect_to, expect_close, next_json, send_json, subscribe},
    market::{id, post_task, poster},
};
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde_json::json;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

on_both_backends!(
    subscribing_to_a_task_that_does_not_exist_gets_not_found,
    the_51st_socket_from_one_address_is_closed_with_4029
);

/// RSS measurements of concurrent tests in this process would blur each other.
static MEASURING: Mutex<()> = Mutex::const_new(());

/// `VmRSS` of this process (the server runs in it), in bytes.
fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|line| line.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 1024
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

/// 100k subscribe/unsubscribe cycles from one anonymous socket, three in four for random task
/// ids that do not exist, the rest for the few real ones, `batch` cycles in flight at a time.
async fn churn(socket: &mut Socket, real: &[String], cycles: usize) {
    const BATCH: usize = 100;
    for start in (0..cycles).step_by(BATCH) {
        let end = (start + BATCH).min(cycles);
        for _ in start..end {
            let topic = match rand::thread_rng().gen_range(0..4 * real.len()) {
                n if n < real.len() => format!("task:{}", real[n]),
                _ => format!("task:{}", uuid::Uuid::now_v7()),
            };
            let subscribe = json!({ "type": "subscribe", "topic": topic }).to_string();
            let unsubscribe = json!({ "type": "unsubscribe", "topic": topic }).to_string();
            socket.feed(Message::text(subscribe)).await.unwrap();
            socket.feed(Message::text(unsubscribe)).await.unwrap();
        }
        socket.flush().await.unwrap();
        for _ in start..end {
            let reply = next_json(socket).await;
            assert!(reply["type"] == "subscribed" || reply["code"] == "not_found", "{reply}");
        }
    }
}

async fn subscribe_churn_leaves_topic_count_and_memory_flat(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    let mut real = Vec::new();
    for _ in 0..4 {
        real.push(id(&post_task(&app, &token, json!({})).await));
    }
    let hub = &app.server.state.hub;
    let _measuring = MEASURING.lock().await;
    let mut socket = connect_to(&app.server.url(), None).await;
    let most = hub.topic_count() + real.len();

    churn(&mut socket, &real, 10_000).await;
    let (warm_topics, warm_rss) = (hub.topic_count(), rss());
    churn(&mut socket, &real, 90_000).await;
    let (topics, grown_mb) = (hub.topic_count(), rss().saturating_sub(warm_rss) / (1024 * 1024));

    assert!(warm_topics <= most && topics <= most, "topics: {warm_topics} at 10k cycles, {topics} at 100k");
    assert!(grown_mb < 10, "RSS grew by {grown_mb} MB over 90k more cycles");
    pong(&mut socket).await;
    app
}

fn unlimited_subscribes(config: &mut server::config::Config) {
    config.ws_subscribes_per_second = 1e9;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribe_churn_leaves_topic_count_and_memory_flat_sqlite() {
    common::run(Backend::Sqlite, unlimited_subscribes, subscribe_churn_leaves_topic_count_and_memory_flat).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribe_churn_leaves_topic_count_and_memory_flat_postgres() {
    common::run(Backend::Postgres, unlimited_subscribes, subscribe_churn_leaves_topic_count_and_memory_flat).await;
}
