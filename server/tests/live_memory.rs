//! Subscribe churn from one anonymous socket must not grow a node's topic state or memory. Its
//! own test binary: RSS is the whole process's, so nothing else may run beside a measurement
//! (not even the other backend's server starting up).

mod common;

use common::{
    Backend, TestApp,
    live::{Socket, connect_to, next_json, send_json},
    market::{id, post_task, poster},
};
use futures_util::SinkExt;
use rand::Rng;
use serde_json::json;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

/// Held for a whole test, server start included.
static MEASURING: Mutex<()> = Mutex::const_new(());

on_both_backends!(given_backend; subscribe_churn_leaves_topic_count_and_memory_flat);

/// `VmRSS` of this process (the server runs in it), in bytes.
fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|line| line.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 1024
}

async fn pong(socket: &mut Socket) {
    send_json(socket, json!({ "type": "ping" })).await;
    let mut reply = next_json(socket).await;
    while reply["type"] == "presence" {
        reply = next_json(socket).await;
    }
    assert_eq!(reply["type"], "pong");
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
        let mut answered = start;
        while answered < end {
            let reply = next_json(socket).await;
            // A real task's subscription is followed by its viewer count.
            if reply["type"] == "presence" {
                continue;
            }
            assert!(reply["type"] == "subscribed" || reply["code"] == "not_found", "{reply}");
            answered += 1;
        }
    }
}

async fn churn_from_one_socket(app: TestApp) -> TestApp {
    let token = poster(&app, "poster@example.com").await;
    let mut real = Vec::new();
    for _ in 0..4 {
        real.push(id(&post_task(&app, &token, json!({})).await));
    }
    let hub = &app.server.state.hub;
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

fn unlimited_subscribes(config: &mut domain::config::Config) {
    config.ws_subscribes_per_second = 1e9;
}

async fn subscribe_churn_leaves_topic_count_and_memory_flat(backend: Backend) {
    let _measuring = MEASURING.lock().await;
    common::run(backend, unlimited_subscribes, churn_from_one_socket).await;
}
