//! Subscribe churn of made-up topics from one anonymous socket must keep the hub's topic state
//! and memory flat. Its own test binary: RSS is the whole process's, so another test running
//! beside the measurement (the hub binary runs dozens at once) would count as growth.

mod common;

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
