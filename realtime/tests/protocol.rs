use crate::common;

use common::{connect, start, test_config};
use realtime::{BusConfig, HubConfig};
use serde_json::json;
use tokio_tungstenite::tungstenite::Error as WsError;

#[tokio::test]
async fn anonymous_socket_receives_events_of_a_public_topic() {
    let (hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut visitor = connect(addr, "").await;
    let subscribed = visitor.subscribe("task:t1", None).await;
    assert_eq!(subscribed["recovered"], false);

    hub.publish("task:t1", "offer.created", &json!({"id": "o1", "offer_count": 1})).await;
    let event = visitor.next_event().await;
    assert_eq!(event["topic"], "task:t1");
    assert_eq!(event["event"], "offer.created");
    assert_eq!(event["data"], json!({"id": "o1", "offer_count": 1}));
    assert_eq!(event["seq"].as_u64().unwrap(), subscribed["seq"].as_u64().unwrap() + 1);
    assert!(event["at"].as_str().unwrap().ends_with('Z'));

    let stats = hub.stats();
    assert_eq!((stats.connections, stats.subscriptions), (1, 1));
    assert_eq!((stats.published, stats.delivered), (1, 1));
}

#[tokio::test]
async fn forbidden_topic_gets_an_error_and_the_socket_stays_open() {
    let (hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut visitor = connect(addr, "?user=alice").await;
    visitor.next().await; // its own user topic

    visitor.send(json!({"type": "subscribe", "topic": "user:bob"})).await;
    let error = visitor.next().await;
    assert_eq!(error["type"], "error");
    assert_eq!(error["code"], "forbidden");
    assert_eq!(error["topic"], "user:bob");

    visitor.subscribe("tasks", None).await;
    hub.publish("user:bob", "notification.created", &json!({"secret": true})).await;
    hub.publish("tasks", "task.created", &json!({"id": "t9"})).await;
    let event = visitor.next_event().await;
    assert_eq!(event["topic"], "tasks", "only the permitted topic arrives");
}

#[tokio::test]
async fn anonymous_socket_cannot_watch_a_user_topic() {
    let (_hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut visitor = connect(addr, "").await;
    visitor.send(json!({"type": "subscribe", "topic": "user:alice"})).await;
    assert_eq!(visitor.next().await["code"], "forbidden");
}

#[tokio::test]
async fn signed_in_socket_is_subscribed_to_its_user_topic() {
    let (hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut alice = connect(addr, "?user=alice").await;
    let subscribed = alice.next().await;
    assert_eq!(subscribed["type"], "subscribed");
    assert_eq!(subscribed["topic"], "user:alice");

    hub.publish("user:alice", "notification.created", &json!({"title": "New offer"})).await;
    let event = alice.next_event().await;
    assert_eq!(event["topic"], "user:alice");
    assert_eq!(event["data"]["title"], "New offer");
}

#[tokio::test]
async fn malformed_messages_get_bad_request_and_ping_gets_pong() {
    let (_hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut client = connect(addr, "").await;
    for bad in [json!("hello"), json!({"type": "dance"}), json!({"type": "subscribe", "topic": "a b"})] {
        client.send(bad).await;
        let error = client.next().await;
        assert_eq!((error["type"].as_str(), error["code"].as_str()), (Some("error"), Some("bad_request")));
    }
    client.send(json!({"type": "ping"})).await;
    assert_eq!(client.next().await, json!({"type": "pong"}));
}

#[tokio::test]
async fn unsubscribed_socket_gets_no_more_events() {
    let (hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut client = connect(addr, "").await;
    client.subscribe("task:a", None).await;
    client.subscribe("task:b", None).await;
    client.send(json!({"type": "unsubscribe", "topic": "task:a"})).await;
    client.send(json!({"type": "ping"})).await;
    assert_eq!(client.next().await["type"], "pong", "unsubscribe handled");

    hub.publish("task:a", "task.updated", &json!({})).await;
    hub.publish("task:b", "task.updated", &json!({})).await;
    assert_eq!(client.next_event().await["topic"], "task:b");
    assert_eq!(hub.stats().subscriptions, 1);
}

#[tokio::test]
async fn invalid_ticket_is_closed_with_4001() {
    let (_hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut client = connect(addr, "?ticket=bad").await;
    assert_eq!(client.closed_with().await, 4001);
}

#[tokio::test]
async fn connections_past_the_cap_are_refused_with_503() {
    let config = HubConfig { max_connections: 1, ..test_config() };
    let (hub, addr) = start(config, BusConfig::Local).await;
    let mut first = connect(addr, "").await;
    first.send(json!({"type": "ping"})).await;
    first.next().await;

    let refused = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await;
    match refused {
        Err(WsError::Http(response)) => assert_eq!(response.status(), 503),
        other => panic!("expected HTTP 503, got {other:?}"),
    }
    assert_eq!(hub.stats().refused_connections, 1);
}

#[tokio::test]
async fn shutdown_closes_every_socket_with_1001_and_refuses_new_ones() {
    let (hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut first = connect(addr, "").await;
    let mut second = connect(addr, "?user=bob").await;
    first.subscribe("tasks", None).await;
    second.next().await;

    hub.shutdown();
    assert_eq!(first.closed_with().await, realtime::CLOSE_GOING_AWAY);
    assert_eq!(second.closed_with().await, realtime::CLOSE_GOING_AWAY);
    match tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await {
        Err(WsError::Http(response)) => assert_eq!(response.status(), 503),
        other => panic!("expected HTTP 503, got {other:?}"),
    }
}
