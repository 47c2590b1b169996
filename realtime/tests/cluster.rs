//! Two hubs ("nodes") sharing a Redis bus.
use crate::common;

use common::{RedisServer, connect, redis_url, start, test_config};

use realtime::{BusConfig, Hub};
use serde_json::json;

fn unique_topic() -> String {
    format!("task:{}", uuid::Uuid::new_v4())
}

async fn two_nodes(url: &str) -> ((Hub, std::net::SocketAddr), (Hub, std::net::SocketAddr)) {
    let bus = || BusConfig::Redis { url: url.to_owned() };
    (start(test_config(), bus()).await, start(test_config(), bus()).await)
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn event_published_on_one_node_reaches_a_socket_on_the_other() {
    let url = redis_url();
    let ((node_a, addr_a), (node_b, _)) = two_nodes(&url).await;
    let topic = unique_topic();
    let mut visitor = connect(addr_a, "").await;
    let subscribed = visitor.subscribe(&topic, None).await;

    node_b.publish(&topic, "offer.created", &json!({"id": "o1"})).await;
    let event = visitor.next_event().await;
    assert_eq!((event["topic"].as_str(), event["event"].as_str()), (Some(&*topic), Some("offer.created")));
    assert_eq!(event["seq"].as_u64().unwrap(), subscribed["seq"].as_u64().unwrap() + 1);

    node_a.publish(&topic, "offer.withdrawn", &json!({"id": "o1"})).await;
    let event = visitor.next_event().await;
    assert_eq!(event["event"], "offer.withdrawn", "the publishing node delivers too");
    assert_eq!(node_b.stats().published, 1);
    assert!(node_a.is_bus_healthy().await);
}

/// A batch (a task's alerts to many taskers) takes one round trip, but each event is numbered,
/// kept and delivered as a single publish is: in order per topic, on every node, recoverable.
#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn a_batch_published_on_one_node_is_numbered_per_topic_and_recoverable_on_the_other() {
    let url = redis_url();
    let ((_node_a, addr_a), (node_b, _)) = two_nodes(&url).await;
    let (first, second) = (unique_topic(), unique_topic());
    let mut visitor = connect(addr_a, "").await;
    let first_seq = visitor.subscribe(&first, None).await["seq"].as_u64().unwrap();
    let mut late = connect(addr_a, "").await;
    let second_seq = late.subscribe(&second, None).await["seq"].as_u64().unwrap();
    drop(late);

    let events: Vec<(&str, &str, serde_json::Value)> = (0..6)
        .map(|n| (if n % 2 == 0 { first.as_str() } else { second.as_str() }, "notification.created", json!({"n": n})))
        .collect();
    node_b.publish_all(&events).await;
    assert_eq!(node_b.stats().published, 6);
    for (n, seq) in [(0, first_seq + 1), (2, first_seq + 2), (4, first_seq + 3)] {
        let event = visitor.next_event().await;
        assert_eq!(
            (event["topic"].as_str(), event["data"]["n"].as_u64(), event["seq"].as_u64()),
            (Some(&*first), Some(n), Some(seq))
        );
    }

    let mut back = connect(addr_a, "").await;
    let subscribed = back.subscribe(&second, Some(second_seq)).await;
    assert_eq!(
        (subscribed["recovered"].as_bool(), subscribed["seq"].as_u64()),
        (Some(true), Some(second_seq + 3)),
        "{subscribed}"
    );
    for n in [1, 3, 5] {
        assert_eq!(back.next_event().await["data"]["n"], n);
    }
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn recovery_works_across_nodes() {
    let url = redis_url();
    let ((node_a, addr_a), (_node_b, addr_b)) = two_nodes(&url).await;
    let topic = unique_topic();
    let mut on_a = connect(addr_a, "").await;
    on_a.subscribe(&topic, None).await;
    node_a.publish(&topic, "offer.created", &json!({"n": 1})).await;
    let seen = on_a.next_event().await["seq"].as_u64().unwrap();
    drop(on_a);

    for n in 2..=4 {
        node_a.publish(&topic, "offer.created", &json!({"n": n})).await;
    }

    let mut on_b = connect(addr_b, "").await;
    let subscribed = on_b.subscribe(&topic, Some(seen)).await;
    assert_eq!(subscribed["recovered"], true, "{subscribed}");
    assert_eq!(subscribed["seq"].as_u64().unwrap(), seen + 3);
    for n in 2..=4 {
        assert_eq!(on_b.next_event().await["data"]["n"], n);
    }
    node_a.publish(&topic, "offer.created", &json!({"n": 5})).await;
    assert_eq!(on_b.next_event().await["data"]["n"], 5, "then live, no duplicates");

    let history_len = test_config().history_len as u64;
    let mut late = connect(addr_b, "").await;
    for n in 0..history_len {
        node_a.publish(&topic, "offer.created", &json!({"n": n})).await;
    }
    let too_old = late.subscribe(&topic, Some(seen)).await;
    assert_eq!(too_old["recovered"], false);
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn redis_outage_keeps_local_delivery_and_cross_node_delivery_resumes_after_restart() {
    let mut redis = RedisServer::start_or_panic();
    let ((node_a, addr_a), (node_b, addr_b)) = two_nodes(&redis.url()).await;
    let topic = unique_topic();
    let mut on_a = connect(addr_a, "").await;
    on_a.subscribe(&topic, None).await;
    let mut on_b = connect(addr_b, "").await;
    on_b.subscribe(&topic, None).await;
    node_b.publish(&topic, "offer.created", &json!({"n": 1})).await;
    assert_eq!(on_a.next_event().await["data"]["n"], 1);
    assert_eq!(on_b.next_event().await["data"]["n"], 1);

    redis.stop();
    assert_eq!(until_status(&mut on_a).await, "degraded");
    node_a.publish(&topic, "offer.created", &json!({"n": 2})).await;
    let local = on_a.next_event().await;
    assert_eq!(local["data"]["n"], 2, "the publishing node still delivers");
    assert!(!node_a.is_bus_healthy().await);

    redis.restart().expect("redis-server comes back");
    // Each node tells its sockets to resync once its subscriber is back.
    let resync_a = on_a.next().await;
    assert_eq!((resync_a["type"].as_str(), resync_a["recovered"].as_bool()), (Some("subscribed"), Some(false)));
    let mut resync_b = on_b.next().await;
    if resync_b["type"] == "status" {
        assert_eq!(resync_b["live"], "degraded", "node B noticed the outage too");
        resync_b = on_b.next().await;
    }
    assert_eq!((resync_b["type"].as_str(), resync_b["recovered"].as_bool()), (Some("subscribed"), Some(false)));

    node_b.publish(&topic, "offer.created", &json!({"n": 3})).await;
    let mut a_saw = on_a.next().await;
    while matches!(a_saw["type"].as_str(), Some("subscribed" | "status")) {
        a_saw = on_a.next().await; // a further resync (the break in history) and "ok" may come first
    }
    assert_eq!(a_saw["data"]["n"], 3, "cross-node delivery resumed");
    assert!(node_a.is_bus_healthy().await);
}

async fn subscriber_count(url: &str, topic: &str) -> u64 {
    let client = redis::Client::open(url).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let channel = format!("taskhub:rt:{topic}");
    let (_, count): (String, u64) =
        redis::cmd("PUBSUB").arg("NUMSUB").arg(&channel).query_async(&mut conn).await.unwrap();
    count
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn node_subscribes_to_redis_only_for_topics_with_local_subscribers() {
    let url = redis_url();
    let ((_node_a, addr_a), _) = two_nodes(&url).await;
    let (watched, other) = (unique_topic(), unique_topic());
    assert_eq!(subscriber_count(&url, &watched).await, 0);

    let mut first = connect(addr_a, "").await;
    let mut second = connect(addr_a, "").await;
    first.subscribe(&watched, None).await;
    second.subscribe(&watched, None).await;
    assert_eq!(subscriber_count(&url, &watched).await, 1, "one subscription per node");

    first.send(json!({"type": "unsubscribe", "topic": watched})).await;
    first.subscribe(&other, None).await;
    assert_eq!(subscriber_count(&url, &watched).await, 1, "still watched by the second socket");

    drop(second);
    // The node handles interest changes in order, so once a later subscribe is answered the
    // earlier departure has been applied.
    first.send(json!({"type": "unsubscribe", "topic": other})).await;
    first.subscribe(&unique_topic(), None).await;
    let mut third = connect(addr_a, "").await;
    third.subscribe(&unique_topic(), None).await;
    assert_eq!(subscriber_count(&url, &other).await, 0);
    assert_eq!(subscriber_count(&url, &watched).await, 0, "unsubscribed when the last socket left");
}

/// Reads past any events until a `status` frame and returns its `live`.
async fn until_status(client: &mut common::Client) -> String {
    loop {
        let message = client.next().await;
        if message["type"] == "status" {
            return message["live"].as_str().unwrap().to_owned();
        }
        assert_eq!(message["type"], "event", "{message}");
    }
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn sockets_hear_live_is_degraded_while_the_bus_is_down_and_ok_after_the_resync() {
    let mut redis = RedisServer::start_or_panic();
    let ((node_a, addr_a), (node_b, addr_b)) = two_nodes(&redis.url()).await;
    let topic = unique_topic();
    let mut watcher = connect(addr_a, "").await;
    watcher.subscribe(&topic, None).await;
    let mut other_watcher = connect(addr_b, "").await;
    other_watcher.subscribe(&topic, None).await;
    node_b.publish(&topic, "offer.created", &json!({"n": 1})).await;
    assert_eq!(watcher.next_event().await["data"]["n"], 1);
    assert_eq!(other_watcher.next_event().await["data"]["n"], 1);
    assert!(node_a.is_live());

    redis.stop();
    let started = std::time::Instant::now();
    assert_eq!(watcher.next().await, json!({"type": "status", "live": "degraded"}));
    assert!(started.elapsed() < std::time::Duration::from_secs(2), "told at once, not after a timeout");
    assert_eq!(other_watcher.next().await, json!({"type": "status", "live": "degraded"}));
    assert!(!node_a.is_live());

    let mut newcomer = connect(addr_a, "?user=u1").await;
    assert_eq!(newcomer.next().await, json!({"type": "status", "live": "degraded"}), "a new socket hears it first");

    redis.restart().expect("redis-server comes back");
    let resync = watcher.next().await;
    assert_eq!((resync["type"].as_str(), resync["recovered"].as_bool()), (Some("subscribed"), Some(false)));
    assert_eq!(resync["topic"], topic.as_str());
    assert_eq!(watcher.next().await, json!({"type": "status", "live": "ok"}), "ok follows the resync");
    assert!(node_a.is_live());
    let mut newcomer_saw = newcomer.next().await;
    while newcomer_saw["type"] == "subscribed" {
        newcomer_saw = newcomer.next().await; // its own topic's resync
    }
    assert_eq!(newcomer_saw, json!({"type": "status", "live": "ok"}));
    // Node B is back on its own time: a publish of its before then is delivered on B only, and
    // every node resyncs the topic once B is back (the test below).
    let mut other_saw = other_watcher.next().await;
    while other_saw["type"] == "subscribed" {
        other_saw = other_watcher.next().await; // the topic's resync
    }
    assert_eq!(other_saw, json!({"type": "status", "live": "ok"}));

    node_b.publish(&topic, "offer.created", &json!({"n": 2})).await;
    assert_eq!(watcher.next_event().await["data"]["n"], 2, "cross-node delivery resumed");
    let mut fresh = connect(addr_a, "").await;
    fresh.subscribe(&topic, None).await; // no status frame first once the bus is back
}

/// While Redis is down a publish must not wait on it: a request that publishes several events
/// (a payment notifies every tasker who made an offer) would otherwise take a second per event.
#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn publishing_while_redis_is_down_delivers_locally_without_waiting_on_redis() {
    let mut redis = RedisServer::start_or_panic();
    let ((node_a, addr_a), (_node_b, _addr_b)) = two_nodes(&redis.url()).await;
    let topic = unique_topic();
    let mut watcher = connect(addr_a, "").await;
    watcher.subscribe(&topic, None).await;
    redis.stop();
    assert_eq!(watcher.next().await, json!({"type": "status", "live": "degraded"}));

    // Each would otherwise wait on the connection manager's own reconnection attempt (about
    // 150 ms): the node knows Redis is unreachable from its subscriber and does not ask. (Fewer
    // than the test socket's 16-frame queue, so the watcher is not closed as a slow consumer.)
    let started = std::time::Instant::now();
    for n in 0..12 {
        node_a.publish(&topic, "offer.created", &json!({ "n": n })).await;
    }
    let took = started.elapsed();
    for n in 0..12 {
        assert_eq!(watcher.next_event().await["data"]["n"], n, "delivered on this node while Redis is down");
    }
    assert!(took < std::time::Duration::from_millis(300), "12 publishes took {took:?} with Redis down");

    let batch: Vec<(&str, &str, serde_json::Value)> =
        (12..15).map(|n| (topic.as_str(), "offer.created", json!({ "n": n }))).collect();
    node_a.publish_all(&batch).await;
    for n in 12..15 {
        assert_eq!(watcher.next_event().await["data"]["n"], n, "a batch, too, is delivered on this node");
    }
}

/// Reads past any events until the hub's resync (`subscribed` with recovered:false).
async fn until_resync(client: &mut common::Client) -> serde_json::Value {
    loop {
        let message = client.next().await;
        if message["type"] == "subscribed" {
            assert_eq!(message["recovered"], false, "{message}");
            return message;
        }
        assert_eq!(message["type"], "event", "{message}");
    }
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn event_delivered_on_one_node_only_makes_every_node_resync_and_breaks_recovery() {
    let redis = RedisServer::start_or_panic();
    let ((node_a, addr_a), (node_b, addr_b)) = two_nodes(&redis.url()).await;
    let topic = unique_topic();
    let mut on_a = connect(addr_a, "").await;
    on_a.subscribe(&topic, None).await;
    let mut on_b = connect(addr_b, "").await;
    on_b.subscribe(&topic, None).await;
    node_b.publish(&topic, "offer.created", &json!({"n": 1})).await;
    on_a.next_event().await;
    let seen = on_b.next_event().await["seq"].as_u64().unwrap();

    // Redis refuses writes for longer than a publish waits, while the subscribers stay connected.
    let client = redis::Client::open(redis.url()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let () = redis::cmd("CLIENT").arg("PAUSE").arg(1500).arg("WRITE").query_async(&mut conn).await.unwrap();
    node_a.publish(&topic, "offer.created", &json!({"n": 2})).await;
    assert_eq!(on_a.next_event().await["data"]["n"], 2, "delivered on the publishing node");

    let resync_b = until_resync(&mut on_b).await;
    until_resync(&mut on_a).await;
    let mut late = connect(addr_b, "").await;
    let subscribed = late.subscribe(&topic, Some(seen)).await;
    assert_eq!(subscribed["recovered"], false, "history before the break is not claimed");
    assert!(subscribed["seq"].as_u64() >= resync_b["seq"].as_u64());
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn node_starts_while_redis_is_down_and_joins_the_cluster_when_it_comes_up() {
    let mut redis = RedisServer::start_or_panic();
    redis.stop();
    let ((node_a, addr_a), (node_b, _)) = two_nodes(&redis.url()).await;
    assert!(!node_a.is_bus_healthy().await);
    let topic = unique_topic();
    let mut on_a = connect(addr_a, "").await;
    assert_eq!(on_a.next().await, json!({"type": "status", "live": "degraded"}), "told at once");
    on_a.subscribe(&topic, None).await;
    node_a.publish(&topic, "offer.created", &json!({"n": 1})).await;
    assert_eq!(on_a.next_event().await["data"]["n"], 1, "local delivery without Redis");

    redis.restart().expect("redis-server comes back");
    until_resync(&mut on_a).await;
    // Node B reconnects on its own schedule: until it has, its publish stays on node B.
    let deadline = std::time::Instant::now() + common::WAIT;
    while !node_b.is_bus_healthy().await {
        assert!(std::time::Instant::now() < deadline, "node B did not get the bus back");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    node_b.publish(&topic, "offer.created", &json!({"n": 2})).await;
    loop {
        let message = on_a.next().await;
        if message["type"] == "event" {
            assert_eq!(message["data"]["n"], 2, "cross-node delivery once Redis is up");
            break;
        }
    }
    assert!(node_a.is_bus_healthy().await);
}

async fn redis_command(url: &str, args: &[&str]) {
    let client = redis::Client::open(url).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let _: redis::Value = redis::cmd(args[0]).arg(&args[1..]).query_async(&mut conn).await.unwrap();
}

/// Two nodes on the bus, node A signed in to Redis as a user of its own (`node-a`), so it alone
/// can be shut out (`ACL SETUSER node-a off`, then `CLIENT KILL USER node-a`).
async fn two_nodes_with_a_separable_node_a(url: &str) -> ((Hub, std::net::SocketAddr), (Hub, std::net::SocketAddr)) {
    redis_command(url, &["ACL", "SETUSER", "node-a", "on", ">secret", "~*", "&*", "+@all"]).await;
    let node_a = start(test_config(), BusConfig::Redis { url: format!("{url}?user=node-a&pass=secret") }).await;
    let node_b = start(test_config(), BusConfig::Redis { url: url.to_owned() }).await;
    let deadline = std::time::Instant::now() + common::WAIT;
    while !(node_a.0.is_bus_healthy().await && node_b.0.is_bus_healthy().await) {
        assert!(std::time::Instant::now() < deadline, "the bus did not come up");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    (node_a, node_b)
}

/// A node back on the bus compares each watched topic's sequence number in Redis with its own:
/// a topic that moved meanwhile gets what it missed, one that did not hears nothing (a resync
/// makes every client on it refetch, which at a thousand watchers is a burst for nothing).
#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn a_node_back_on_the_bus_resyncs_only_the_topics_that_moved() {
    let redis = RedisServer::start_or_panic();
    let url = redis.url();
    let ((_node_a, addr_a), (node_b, _)) = two_nodes_with_a_separable_node_a(&url).await;
    let (moved, still) = (unique_topic(), unique_topic());
    let mut on_moved = connect(addr_a, "").await;
    on_moved.subscribe(&moved, None).await;
    let mut on_still = connect(addr_a, "").await;
    on_still.subscribe(&still, None).await;
    node_b.publish(&still, "offer.created", &json!({"n": 0})).await;
    assert_eq!(on_still.next_event().await["data"]["n"], 0);

    redis_command(&url, &["ACL", "SETUSER", "node-a", "off"]).await;
    redis_command(&url, &["CLIENT", "KILL", "USER", "node-a"]).await;
    assert_eq!(on_moved.next().await, json!({"type": "status", "live": "degraded"}));
    assert_eq!(on_still.next().await, json!({"type": "status", "live": "degraded"}));
    node_b.publish(&moved, "offer.created", &json!({"n": 1})).await;

    redis_command(&url, &["ACL", "SETUSER", "node-a", "on"]).await;
    assert_eq!(on_still.next().await, json!({"type": "status", "live": "ok"}), "no resync: nothing moved");
    node_b.publish(&still, "offer.created", &json!({"n": 2})).await;
    assert_eq!(on_still.next_event().await["data"]["n"], 2, "then live, with nothing before it");

    let missed = on_moved.next().await;
    assert_eq!((missed["type"].as_str(), missed["data"]["n"].as_u64()), (Some("event"), Some(1)), "{missed}");
    assert_eq!(on_moved.next().await, json!({"type": "status", "live": "ok"}));
    node_b.publish(&moved, "offer.created", &json!({"n": 3})).await;
    assert_eq!(on_moved.next_event().await["data"]["n"], 3);
}

/// A node that subscribes a topic while its subscriber is on Redis but its command connection is
/// not (it cannot read the topic's sequence number) numbers the topic itself, from the time. Once
/// Redis answers again it must take Redis's numbers back: until then every event published on
/// another node has a lower number than the node's own and is dropped as one already delivered.
#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn a_topic_subscribed_while_redis_could_not_be_read_takes_redis_numbers_once_it_can() {
    let redis = RedisServer::start_or_panic();
    let url = redis.url();
    let ((_node_a, addr_a), (node_b, addr_b)) = two_nodes_with_a_separable_node_a(&url).await;
    // Redis numbers the topic first.
    let topic = unique_topic();
    let mut on_b = connect(addr_b, "").await;
    on_b.subscribe(&topic, None).await;
    node_b.publish(&topic, "offer.created", &json!({"n": 0})).await;
    assert_eq!(on_b.next_event().await["data"]["n"], 0);
    // A sequence base taken from now on is above Redis's numbers for the topic.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;

    // Node A's command connection goes (its subscriber, in pub/sub mode, stays), then a socket
    // subscribes on node A: the node cannot read the topic's sequence number.
    redis_command(&url, &["ACL", "SETUSER", "node-a", "off"]).await;
    redis_command(&url, &["CLIENT", "KILL", "USER", "node-a", "TYPE", "normal"]).await;
    let mut on_a = connect(addr_a, "").await;
    on_a.subscribe(&topic, None).await;
    redis_command(&url, &["ACL", "SETUSER", "node-a", "on"]).await;

    // Node B publishes until node A delivers one of its events.
    let deadline = std::time::Instant::now() + common::WAIT;
    for n in 1.. {
        assert!(std::time::Instant::now() < deadline, "node A never delivered node B's events");
        node_b.publish(&topic, "offer.created", &json!({"n": n})).await;
        match tokio::time::timeout(std::time::Duration::from_millis(300), on_a.next()).await {
            Ok(message) if message["type"] == "event" => break,
            // Told to refetch what it missed meanwhile: what follows comes in Redis's numbers.
            Ok(message) => assert_eq!(
                (message["type"].as_str(), message["recovered"].as_bool()),
                (Some("subscribed"), Some(false)),
                "{message}"
            ),
            Err(_) => {}
        }
    }
}
