//! What one anonymous socket can make the hub hold: topic state for made-up topics, and
//! subscribe messages as fast as it can send them.

use crate::common;

use common::{Client, connect, start, test_config};
use futures_util::SinkExt;
use realtime::{BusConfig, HubConfig};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// `VmRSS` of this process (the hub runs in it), in bytes.
fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|line| line.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 1024
}

/// Subscribes to and leaves `count` fresh topics, `batch` cycles in flight at a time.
async fn churn(client: &mut Client, count: usize, batch: usize) {
    for start in (0..count).step_by(batch) {
        let end = (start + batch).min(count);
        for _ in start..end {
            let topic = format!("task:{}", uuid::Uuid::new_v4());
            let subscribe = json!({"type": "subscribe", "topic": topic}).to_string();
            let unsubscribe = json!({"type": "unsubscribe", "topic": topic}).to_string();
            client.ws.feed(Message::text(subscribe)).await.unwrap();
            client.ws.feed(Message::text(unsubscribe)).await.unwrap();
        }
        client.ws.flush().await.unwrap();
        for _ in start..end {
            assert_eq!(client.next().await["type"], "subscribed");
        }
    }
}

#[tokio::test]
async fn subscribe_churn_of_random_topics_keeps_topic_count_and_memory_flat() {
    // Replies to a whole batch may be queued at once.
    let config =
        HubConfig { max_idle_topics: 1000, subscribes_per_second: 1e9, send_queue_capacity: 512, ..test_config() };
    let (hub, addr) = start(config, BusConfig::Local).await;
    let mut client = connect(addr, "").await;

    churn(&mut client, 10_000, 200).await;
    let (warm_topics, warm_rss) = (hub.topic_count(), rss());
    churn(&mut client, 90_000, 200).await;
    let (topics, grown_mb) = (hub.topic_count(), rss().saturating_sub(warm_rss) / (1024 * 1024));

    assert!(warm_topics <= 1000 && topics <= 1000, "topics: {warm_topics} after 10k cycles, {topics} after 100k");
    assert!(grown_mb < 10, "RSS grew by {grown_mb} MB over 90k more cycles");
    client.send(json!({"type": "ping"})).await;
    assert_eq!(client.next().await["type"], "pong");
}

#[tokio::test]
async fn subscribes_past_the_burst_are_rate_limited_and_the_socket_stays_open() {
    let config =
        HubConfig { subscribe_burst: 20, subscribes_per_second: 1.0, send_queue_capacity: 64, ..test_config() };
    let (hub, addr) = start(config, BusConfig::Local).await;
    let mut client = connect(addr, "").await;
    for _ in 0..30 {
        client.ws.feed(Message::text(json!({"type": "subscribe", "topic": "tasks"}).to_string())).await.unwrap();
    }
    client.ws.flush().await.unwrap();
    let mut limited = 0;
    for _ in 0..30 {
        let reply = client.next().await;
        if reply["type"] == "error" {
            assert_eq!((reply["code"].as_str(), reply["topic"].as_str()), (Some("rate_limited"), Some("tasks")));
            limited += 1;
        }
    }
    assert!((9..=10).contains(&limited), "{limited} of 30 refused");
    assert_eq!(hub.stats().rate_limited_subscribes, limited);

    // Still subscribed, still served.
    hub.publish("tasks", "task.created", &json!({"id": "t1"})).await;
    assert_eq!(client.next_event().await["data"]["id"], "t1");
    client.send(json!({"type": "ping"})).await;
    assert_eq!(client.next().await["type"], "pong");
}
