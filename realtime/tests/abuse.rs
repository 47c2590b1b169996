//! What one anonymous socket can make the hub hold: subscribe messages as fast as it can send
//! them (its topic state for made-up topics is measured in `churn_memory.rs`).

use crate::common;

use common::{connect, start, test_config};
use futures_util::SinkExt;
use realtime::{BusConfig, HubConfig};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

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
