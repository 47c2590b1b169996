//! Viewer counts and typing indicators, on the in-process bus and across nodes through Redis.
use crate::common;

use std::{sync::Arc, time::Duration};

use common::{Client, connect, redis_url, start, test_config};
use realtime::{BusConfig, HubConfig};
use serde_json::{Value, json};
use tokio::time::{Instant, timeout};

fn unique_topic() -> String {
    format!("task:{}", uuid::Uuid::new_v4())
}

fn buses() -> Vec<BusConfig> {
    let mut buses = vec![BusConfig::Local];
    if !cfg!(taskhub_skip_redis) {
        buses.push(BusConfig::Redis { url: redis_url() });
    }
    buses
}

/// Task `t1` is between `poster` and `tasker`; nobody else may type in it.
fn typing_config() -> HubConfig {
    HubConfig {
        typing_peer: Arc::new(|user, task| {
            let peer = match (task, user) {
                ("t1", "poster") => Some("tasker".to_owned()),
                ("t1", "tasker") => Some("poster".to_owned()),
                _ => None,
            };
            Box::pin(std::future::ready(peer))
        }),
        ..test_config()
    }
}

/// A signed-in socket, once the hub has subscribed it to its own user topic.
async fn signed_in(addr: std::net::SocketAddr, user: &str) -> Client {
    let mut client = connect(addr, &format!("?user={user}")).await;
    let own = client.next().await;
    assert_eq!((own["type"].as_str(), own["topic"].as_str()), (Some("subscribed"), Some(&*format!("user:{user}"))));
    client
}

fn counts(frame: &Value) -> (u64, u64) {
    (frame["viewers"].as_u64().unwrap(), frame["taskers"].as_u64().unwrap())
}

/// Reads presence frames until one says `wanted`; panics after `within`.
async fn until_counts(client: &mut Client, wanted: (u64, u64), within: Duration) -> Instant {
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let frame = timeout(left, client.next_presence()).await.unwrap_or_else(|_| panic!("no count {wanted:?}"));
        if counts(&frame) == wanted {
            return Instant::now();
        }
    }
}

async fn subscribe_with_presence(client: &mut Client, topic: &str) -> Value {
    client.send(json!({"type": "subscribe", "topic": topic})).await;
    let subscribed = client.next_any().await;
    assert_eq!(subscribed["type"], "subscribed", "{subscribed}");
    let presence = client.next_any().await;
    assert_eq!(presence["type"], "presence", "a count right after subscribed: {presence}");
    assert_eq!(presence["topic"], topic);
    presence
}

#[tokio::test]
async fn a_subscriber_gets_the_count_after_subscribed_and_it_follows_viewers() {
    for bus in buses() {
        let (_hub, addr) = start(test_config(), bus.clone()).await;
        let topic = unique_topic();
        let mut watcher = connect(addr, "").await;
        assert_eq!(counts(&subscribe_with_presence(&mut watcher, &topic).await), (1, 0), "{bus:?}");

        let mut tasker = signed_in(addr, "u1").await;
        tasker.subscribe(&topic, None).await;
        let mut same_tasker_again = signed_in(addr, "u1").await;
        same_tasker_again.subscribe(&topic, None).await;
        until_counts(&mut watcher, (2, 1), Duration::from_secs(5)).await;

        drop(tasker);
        drop(same_tasker_again);
        until_counts(&mut watcher, (1, 0), Duration::from_secs(5)).await;
    }
}

#[tokio::test]
async fn frames_are_throttled_and_only_sent_on_change() {
    for bus in buses() {
        let config = HubConfig { presence_interval: Duration::from_millis(600), ..test_config() };
        let (_hub, addr) = start(config.clone(), bus.clone()).await;
        let topic = unique_topic();
        let mut watcher = connect(addr, "").await;
        subscribe_with_presence(&mut watcher, &topic).await;

        // Six viewers arrive one after another, faster than the presence period.
        let mut viewers = Vec::new();
        for _ in 0..6 {
            let mut viewer = connect(addr, "").await;
            viewer.subscribe(&topic, None).await;
            viewers.push(viewer);
        }
        let mut arrivals = Vec::new();
        loop {
            let frame = watcher.next_presence().await;
            arrivals.push(Instant::now());
            if counts(&frame) == (7, 0) {
                break;
            }
        }
        for pair in arrivals.windows(2) {
            let gap = pair[1] - pair[0];
            assert!(gap >= config.presence_interval / 2, "{bus:?}: frames {gap:?} apart, {} in all", arrivals.len());
        }

        // Nothing changes (while the nodes keep reporting their counts): nothing is sent.
        let quiet = watcher.next_within(config.presence_interval * 4).await;
        assert!(quiet.is_none(), "{bus:?}: nothing changed, nothing sent: {quiet:?}");
        drop(viewers.pop());
        until_counts(&mut watcher, (6, 0), Duration::from_secs(5)).await;
    }
}

#[tokio::test]
async fn presence_never_enters_the_history() {
    for bus in buses() {
        let (hub, addr) = start(test_config(), bus.clone()).await;
        let topic = unique_topic();
        let mut first = connect(addr, "").await;
        let since = first.subscribe(&topic, None).await["seq"].as_u64().unwrap();
        let mut second = connect(addr, "").await;
        second.subscribe(&topic, None).await;
        until_counts(&mut first, (2, 0), Duration::from_secs(5)).await;
        hub.publish(&topic, "offer.created", &json!({"n": 1})).await;
        drop(second);
        until_counts(&mut first, (1, 0), Duration::from_secs(5)).await;

        let mut returning = connect(addr, "").await;
        returning.send(json!({"type": "subscribe", "topic": topic, "since": since})).await;
        let subscribed = returning.next_any().await;
        assert_eq!(subscribed["recovered"], true, "{bus:?}: {subscribed}");
        let replayed = returning.next_any().await;
        assert_eq!(replayed["event"], "offer.created", "{bus:?}: only the event is replayed");
        let now = returning.next_any().await;
        assert_eq!(now["type"], "presence", "{bus:?}");
        assert_eq!(counts(&now), (2, 0), "{bus:?}: the current count, not a past one");
    }
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn counts_on_two_nodes_add_up() {
    let bus = BusConfig::Redis { url: redis_url() };
    let (_a, addr_a) = start(test_config(), bus.clone()).await;
    let (_b, addr_b) = start(test_config(), bus).await;
    let topic = unique_topic();
    let mut watcher = connect(addr_a, "").await;
    subscribe_with_presence(&mut watcher, &topic).await;
    let mut tasker_on_a = signed_in(addr_a, "u1").await;
    tasker_on_a.subscribe(&topic, None).await;
    let mut on_b = Vec::new();
    for user in [None, Some("u2"), Some("u2")] {
        let mut viewer = match user {
            Some(user) => signed_in(addr_b, user).await,
            None => connect(addr_b, "").await,
        };
        viewer.subscribe(&topic, None).await;
        on_b.push(viewer);
    }
    until_counts(&mut watcher, (4, 2), Duration::from_secs(5)).await;
    let mut late_on_b = connect(addr_b, "").await;
    late_on_b.subscribe(&topic, None).await;
    until_counts(&mut late_on_b, (5, 2), Duration::from_secs(5)).await;
    until_counts(&mut watcher, (5, 2), Duration::from_secs(5)).await;
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn a_killed_nodes_viewers_vanish() {
    let url = redis_url();
    let config = test_config();
    let (_a, addr_a) = start(config.clone(), BusConfig::Redis { url: url.clone() }).await;
    let topic = unique_topic();
    let mut watcher = connect(addr_a, "").await;
    subscribe_with_presence(&mut watcher, &topic).await;

    // Node B runs on a runtime of its own, so dropping that runtime kills it mid-flight: its
    // sockets never say goodbye and it never reports a lower count.
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (kill_tx, kill_rx) = std::sync::mpsc::channel::<()>();
    let node_topic = topic.clone();
    let node_b = std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let viewers = runtime.block_on(async {
            let (_b, addr_b) = start(test_config(), BusConfig::Redis { url }).await;
            let mut viewers = Vec::new();
            for user in [None, Some("u9")] {
                let mut viewer = match user {
                    Some(user) => signed_in(addr_b, user).await,
                    None => connect(addr_b, "").await,
                };
                viewer.subscribe(&node_topic, None).await;
                viewers.push(viewer);
            }
            viewers
        });
        ready_tx.send(()).unwrap();
        kill_rx.recv().unwrap();
        runtime.shutdown_background();
        std::mem::forget(viewers);
    });
    ready_rx.recv().unwrap();
    until_counts(&mut watcher, (3, 1), Duration::from_secs(5)).await;

    let killed = Instant::now();
    kill_tx.send(()).unwrap();
    node_b.join().unwrap();
    let gone = until_counts(&mut watcher, (1, 0), Duration::from_secs(30)).await;
    let took = gone - killed;
    assert!(took <= config.presence_ttl * 2 + config.presence_interval * 2, "took {took:?}");
}

#[tokio::test]
async fn typing_reaches_only_the_other_party_once_per_period_and_is_never_replayed() {
    for bus in buses() {
        let config = typing_config();
        let (_hub, addr) = start(config.clone(), bus.clone()).await;
        let mut poster = signed_in(addr, "poster").await;
        let mut tasker = signed_in(addr, "tasker").await;
        let mut stranger = signed_in(addr, "stranger").await;
        tasker.send(json!({"type": "typing", "task_id": "t1"})).await;
        tasker.send(json!({"type": "typing", "task_id": "t1"})).await;
        let typing = poster.next().await;
        assert_eq!(typing, json!({"type": "typing", "task_id": "t1", "user_id": "tasker"}), "{bus:?}");
        let again = poster.next_within(Duration::from_millis(500)).await;
        assert!(again.is_none(), "{bus:?}: the second within 2 s is dropped: {again:?}");
        assert!(tasker.next_within(Duration::from_millis(100)).await.is_none(), "not echoed to the typist");
        assert!(stranger.next_within(Duration::from_millis(100)).await.is_none(), "{bus:?}: strangers hear nothing");

        stranger.send(json!({"type": "typing", "task_id": "t1"})).await;
        let refused = stranger.next().await;
        assert_eq!((refused["type"].as_str(), refused["code"].as_str()), (Some("error"), Some("forbidden")));
        assert!(poster.next_within(Duration::from_millis(300)).await.is_none(), "{bus:?}");

        let mut anonymous = connect(addr, "").await;
        anonymous.send(json!({"type": "typing", "task_id": "t1"})).await;
        assert_eq!(anonymous.next().await["code"], "forbidden");

        stranger.send(json!({"type": "subscribe", "topic": "user:poster"})).await;
        let refused = stranger.next().await;
        assert_eq!(refused["code"], "forbidden", "{bus:?}: nobody else watches a user's own topic");

        // A new socket of the poster's, even recovering its topic from long ago, sees no typing.
        let mut reloaded = signed_in(addr, "poster").await;
        reloaded.send(json!({"type": "subscribe", "topic": "user:poster", "since": 1})).await;
        let subscribed = reloaded.next().await;
        assert_eq!(subscribed["type"], "subscribed");
        assert!(reloaded.next_within(Duration::from_millis(300)).await.is_none(), "{bus:?}: never replayed");
    }
}
