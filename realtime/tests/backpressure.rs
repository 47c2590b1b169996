use crate::common;

use std::time::Duration;

use common::{connect, connect_small_buffer, silent_client_close_code, silent_client_frames, start, test_config};
use realtime::{BusConfig, CLOSE_HEARTBEAT_TIMEOUT, CLOSE_SLOW_CONSUMER, HubConfig};
use serde_json::json;

#[tokio::test]
async fn stalled_reader_is_closed_with_4008_while_others_keep_receiving() {
    let (hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut stalled = connect_small_buffer(addr).await;
    stalled.subscribe("task:busy", None).await;
    let mut healthy = connect(addr, "").await;
    healthy.subscribe("task:busy", None).await;

    // The stalled client stops reading. Publish in step with the healthy one until the hub
    // gives up on the stalled one; the bound is only there to fail rather than hang.
    let payload = "x".repeat(16 * 1024);
    let mut published = 0;
    while hub.stats().slow_consumer_closes == 0 {
        assert!(published < 10_000, "stalled reader never closed");
        hub.publish("task:busy", "offer.created", &json!({"n": published, "pad": payload})).await;
        let event = healthy.next_event().await;
        assert_eq!(event["data"]["n"], published);
        published += 1;
    }
    for n in published..published + 5 {
        hub.publish("task:busy", "offer.created", &json!({"n": n})).await;
        assert_eq!(healthy.next_event().await["data"]["n"], n, "healthy client keeps receiving");
    }

    assert_eq!(stalled.closed_with().await, CLOSE_SLOW_CONSUMER);
    let stats = hub.stats();
    assert_eq!(stats.slow_consumer_closes, 1);
    assert!(stats.dropped >= 1);
    assert!(published < 2_000, "closed after {published} events: memory stays bounded");
}

#[tokio::test]
async fn silent_client_is_closed_with_4009() {
    let config = HubConfig {
        ping_interval: Duration::from_millis(100),
        idle_timeout: Duration::from_millis(400),
        ..test_config()
    };
    let (hub, addr) = start(config, BusConfig::Local).await;
    assert_eq!(silent_client_close_code(addr).await, Some(CLOSE_HEARTBEAT_TIMEOUT));
    assert_eq!(hub.stats().heartbeat_closes, 1);
}

#[tokio::test]
async fn a_silent_client_is_pinged_every_interval_until_it_is_closed() {
    let config = HubConfig {
        ping_interval: Duration::from_millis(100),
        idle_timeout: Duration::from_millis(450),
        ..test_config()
    };
    let (_hub, addr) = start(config, BusConfig::Local).await;
    let frames = silent_client_frames(addr).await;
    let pings = frames.iter().filter(|(opcode, _)| *opcode == 0x9).count();
    // Pings at ~100, 200, 300 and 400 ms (a late sweep round on a busy machine may skip one),
    // then the close.
    assert!((2..=4).contains(&pings), "{pings} pings before the close: {frames:?}");
    assert_eq!(frames.last().map(|(opcode, _)| *opcode), Some(0x8), "the last frame closes");
}

#[tokio::test]
async fn a_client_that_only_answers_pings_stays_connected() {
    let config = HubConfig {
        ping_interval: Duration::from_millis(100),
        idle_timeout: Duration::from_millis(300),
        ..test_config()
    };
    let (hub, addr) = start(config, BusConfig::Local).await;
    let mut client = connect(addr, "").await;
    // Reading answers each ping with a pong (tungstenite does), and nothing else is sent.
    assert!(client.next_within(Duration::from_millis(1_000)).await.is_none());
    client.send(json!({"type": "ping"})).await;
    assert_eq!(client.next().await["type"], "pong", "still open after three idle timeouts");
    assert_eq!(hub.stats().heartbeat_closes, 0);
}

#[tokio::test]
async fn client_that_keeps_talking_stays_connected_past_the_idle_timeout() {
    let idle_timeout = Duration::from_millis(300);
    let config = HubConfig { ping_interval: Duration::from_millis(100), idle_timeout, ..test_config() };
    let (hub, addr) = start(config, BusConfig::Local).await;
    let mut client = connect(addr, "").await;
    let started = tokio::time::Instant::now();
    while started.elapsed() < idle_timeout * 3 {
        client.send(json!({"type": "ping"})).await;
        assert_eq!(client.next().await["type"], "pong");
    }
    assert_eq!(hub.stats().heartbeat_closes, 0);
}
