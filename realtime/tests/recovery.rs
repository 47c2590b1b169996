use crate::common;

use common::{connect, start, test_config};
use realtime::BusConfig;
use serde_json::json;

#[tokio::test]
async fn resubscribe_with_since_recovers_missed_events_in_order() {
    let (hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut poster = connect(addr, "").await;
    let first = poster.subscribe("task:r1", None).await["seq"].as_u64().unwrap();
    hub.publish("task:r1", "offer.created", &json!({"n": 1})).await;
    let seen = poster.next_event().await["seq"].as_u64().unwrap();
    assert_eq!(seen, first + 1);
    drop(poster);

    for n in 2..=4 {
        hub.publish("task:r1", "offer.created", &json!({"n": n})).await;
    }

    let mut back = connect(addr, "").await;
    let subscribed = back.subscribe("task:r1", Some(seen)).await;
    assert_eq!(subscribed["recovered"], true);
    assert_eq!(subscribed["seq"].as_u64().unwrap(), seen + 3);
    for (i, n) in (2..=4).enumerate() {
        let event = back.next_event().await;
        assert_eq!(event["seq"].as_u64().unwrap(), seen + 1 + i as u64);
        assert_eq!(event["data"]["n"], n);
    }

    hub.publish("task:r1", "offer.created", &json!({"n": 5})).await;
    let live = back.next_event().await;
    assert_eq!((live["seq"].as_u64().unwrap(), &live["data"]["n"]), (seen + 4, &json!(5)));
}

#[tokio::test]
async fn resubscribe_with_nothing_missed_is_recovered_with_no_replay() {
    let (hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut client = connect(addr, "").await;
    client.subscribe("task:r2", None).await;
    hub.publish("task:r2", "task.updated", &json!({})).await;
    let seq = client.next_event().await["seq"].as_u64().unwrap();

    let again = client.subscribe("task:r2", Some(seq)).await;
    assert_eq!((again["recovered"].as_bool(), again["seq"].as_u64()), (Some(true), Some(seq)));
    client.send(json!({"type": "ping"})).await;
    assert_eq!(client.next().await["type"], "pong", "nothing replayed");
}

#[tokio::test]
async fn gap_older_than_the_history_is_not_recovered() {
    let (hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut client = connect(addr, "").await;
    let seen = client.subscribe("task:r3", None).await["seq"].as_u64().unwrap();
    client.send(json!({"type": "unsubscribe", "topic": "task:r3"})).await;
    client.send(json!({"type": "ping"})).await;
    assert_eq!(client.next().await["type"], "pong", "unsubscribe handled");

    let history_len = test_config().history_len;
    for n in 0..history_len + 1 {
        hub.publish("task:r3", "offer.created", &json!({"n": n})).await;
    }

    let subscribed = client.subscribe("task:r3", Some(seen)).await;
    assert_eq!(subscribed["recovered"], false);
    assert_eq!(subscribed["seq"].as_u64().unwrap(), seen + history_len as u64 + 1);
    client.send(json!({"type": "ping"})).await;
    assert_eq!(client.next().await["type"], "pong", "nothing replayed");
}

#[tokio::test]
async fn since_from_another_incarnation_of_the_hub_is_not_recovered() {
    let (hub, addr) = start(test_config(), BusConfig::Local).await;
    let mut client = connect(addr, "").await;
    client.subscribe("task:r4", None).await;
    hub.publish("task:r4", "offer.created", &json!({})).await;
    let seen = client.next_event().await["seq"].as_u64().unwrap();

    // A restarted server starts its sequences afresh.
    let (hub2, addr2) = start(test_config(), BusConfig::Local).await;
    hub2.publish("task:r4", "offer.created", &json!({})).await;
    let mut again = connect(addr2, "").await;
    let subscribed = again.subscribe("task:r4", Some(seen)).await;
    assert_eq!(subscribed["recovered"], false);
    drop(hub);
}
