//! Whether the other party of a task is online (a socket open on any node) or when they were last
//! seen: `online:{user}` subscriptions, on the in-process bus and across nodes through Redis.
use crate::common;

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use common::{Client, connect, redis_url, start, test_config};
use realtime::{BusConfig, HubConfig, OnlineGrant};
use serde_json::{Value, json};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};
use tokio::time::{Instant, timeout};

fn buses() -> Vec<BusConfig> {
    let mut buses = vec![BusConfig::Local];
    if !cfg!(taskhub_skip_redis) {
        buses.push(BusConfig::Redis { url: redis_url() });
    }
    buses
}

/// A poster and a tasker of one assigned task (unique names: the Redis may be shared), and the
/// last-seen times the "server" stored.
struct Pair {
    poster: String,
    tasker: String,
    /// The tasker of another of the poster's tasks.
    other_tasker: String,
    stored: Arc<Mutex<HashMap<String, u64>>>,
}

impl Pair {
    fn new() -> Self {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let (poster, tasker, other_tasker) = (format!("poster-{id}"), format!("tasker-{id}"), format!("other-{id}"));
        Pair { poster, tasker, other_tasker, stored: Arc::default() }
    }

    /// Only the parties see each other; the stored last-seen time comes with the answer.
    fn config(&self) -> HubConfig {
        let (poster, tasker, other) = (self.poster.clone(), self.tasker.clone(), self.other_tasker.clone());
        let stored = self.stored.clone();
        let recorded = self.stored.clone();
        HubConfig {
            online_access: Arc::new(move |watcher, watched| {
                let parties = (watcher == poster && (watched == tasker || watched == other))
                    || ((watcher == tasker || watcher == other) && watched == poster);
                let last_seen_ms = stored.lock().unwrap().get(watched).copied();
                Box::pin(std::future::ready(parties.then_some(OnlineGrant { last_seen_ms })))
            }),
            record_last_seen: Arc::new(move |user, at| {
                recorded.lock().unwrap().insert(user.to_owned(), at);
            }),
            ..test_config()
        }
    }

    fn stored(&self, user: &str) -> Option<u64> {
        self.stored.lock().unwrap().get(user).copied()
    }
}

/// A signed-in socket, once the hub has subscribed it to its own user topic.
async fn signed_in(addr: std::net::SocketAddr, user: &str) -> Client {
    let mut client = connect(addr, &format!("?user={user}")).await;
    let own = client.next().await;
    assert_eq!((own["type"].as_str(), own["topic"].as_str()), (Some("subscribed"), Some(&*format!("user:{user}"))));
    client
}

/// Subscribes to `online:{user}`: `subscribed`, then the state now.
async fn watch(client: &mut Client, user: &str) -> Value {
    let topic = format!("online:{user}");
    client.send(json!({"type": "subscribe", "topic": topic})).await;
    let subscribed = client.next_any().await;
    assert_eq!(
        (subscribed["type"].as_str(), subscribed["topic"].as_str()),
        (Some("subscribed"), Some(&*topic)),
        "{subscribed}"
    );
    let state = client.next_any().await;
    assert_eq!(
        (state["type"].as_str(), state["topic"].as_str()),
        (Some("presence"), Some(&*format!("user:{user}"))),
        "{state}"
    );
    state
}

fn last_seen_ms(frame: &Value) -> u64 {
    let at = frame["last_seen"].as_str().unwrap_or_else(|| panic!("a last-seen time: {frame}"));
    (OffsetDateTime::parse(at, &Rfc3339).unwrap().unix_timestamp_nanos() / 1_000_000) as u64
}

fn now_ms() -> u64 {
    (OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as u64
}

/// The next `presence` frame within `within`.
async fn next_state(client: &mut Client, within: Duration) -> Value {
    timeout(within, client.next_presence()).await.unwrap_or_else(|_| panic!("no online state within {within:?}"))
}

#[tokio::test]
async fn the_other_party_sees_online_then_last_seen_when_the_last_socket_closes() {
    for bus in buses() {
        let pair = Pair::new();
        let (_hub, addr) = start(pair.config(), bus.clone()).await;
        let mut poster = signed_in(addr, &pair.poster).await;
        let never = watch(&mut poster, &pair.tasker).await;
        assert_eq!(
            (never["online"].as_bool(), &never["last_seen"]),
            (Some(false), &Value::Null),
            "{bus:?}: never seen"
        );

        let mut tasker = signed_in(addr, &pair.tasker).await;
        let mut second_tab = signed_in(addr, &pair.tasker).await;
        let online = next_state(&mut poster, Duration::from_secs(5)).await;
        assert_eq!((online["online"].as_bool(), &online["last_seen"]), (Some(true), &Value::Null), "{bus:?}: {online}");

        tasker.ws.close(None).await.unwrap();
        second_tab.send(json!({"type": "ping"})).await;
        assert_eq!(second_tab.next().await["type"], "pong");
        let closed_at = now_ms();
        drop(second_tab);
        let offline = next_state(&mut poster, Duration::from_secs(5)).await;
        assert_eq!(offline["online"], false, "{bus:?}: {offline}");
        assert!(
            last_seen_ms(&offline) + 1 >= closed_at,
            "{bus:?}: gone when the last tab closed, not the first: {offline}"
        );
        let stored = pair.stored(&pair.tasker).expect("the server was asked to store the last-seen time");
        assert!(stored + 1 >= closed_at, "{bus:?}");

        // A reload: the stored time comes back with the state.
        let mut reloaded = signed_in(addr, &pair.poster).await;
        let later = watch(&mut reloaded, &pair.tasker).await;
        assert_eq!(later["online"], false);
        assert!(last_seen_ms(&later) >= stored, "{bus:?}: {later}");
    }
}

#[tokio::test]
async fn strangers_and_anonymous_sockets_are_refused_and_hear_nothing() {
    for bus in buses() {
        let pair = Pair::new();
        let (_hub, addr) = start(pair.config(), bus.clone()).await;
        let stranger_name = format!("stranger-{}", uuid::Uuid::new_v4().simple());
        let mut stranger = signed_in(addr, &stranger_name).await;
        let mut anonymous = connect(addr, "").await;
        for client in [&mut stranger, &mut anonymous] {
            client.send(json!({"type": "subscribe", "topic": format!("online:{}", pair.tasker)})).await;
            let refused = client.next_any().await;
            assert_eq!(
                (refused["type"].as_str(), refused["code"].as_str()),
                (Some("error"), Some("forbidden")),
                "{bus:?}"
            );
            assert_eq!(refused["topic"], format!("online:{}", pair.tasker));
        }
        let mut poster = signed_in(addr, &pair.poster).await;
        watch(&mut poster, &pair.tasker).await;
        let _tasker = signed_in(addr, &pair.tasker).await;
        assert_eq!(next_state(&mut poster, Duration::from_secs(5)).await["online"], true, "{bus:?}");

        // The tasker coming online reached the poster; the refused sockets still hear nothing of it.
        for client in [&mut stranger, &mut anonymous] {
            client.send(json!({"type": "ping"})).await;
            assert_eq!(client.next_any().await, json!({"type": "pong"}), "{bus:?}: nothing before the pong");
        }
    }
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn a_user_online_on_another_node_is_online_on_every_node() {
    let pair = Pair::new();
    let bus = BusConfig::Redis { url: redis_url() };
    let (_a, addr_a) = start(pair.config(), bus.clone()).await;
    let (_b, addr_b) = start(pair.config(), bus).await;
    let mut poster = signed_in(addr_a, &pair.poster).await;
    assert_eq!(watch(&mut poster, &pair.tasker).await["online"], false);

    let mut on_b = signed_in(addr_b, &pair.tasker).await;
    assert_eq!(next_state(&mut poster, Duration::from_secs(5)).await["online"], true, "online through node B");
    let mut late = signed_in(addr_a, &pair.poster).await;
    assert_eq!(watch(&mut late, &pair.tasker).await["online"], true, "a new watcher hears it at once");

    let mut on_a = signed_in(addr_a, &pair.tasker).await;
    on_b.ws.close(None).await.unwrap();
    on_a.send(json!({"type": "ping"})).await;
    assert_eq!(on_a.next().await["type"], "pong");
    let closed_at = now_ms();
    drop(on_a);
    let offline = next_state(&mut poster, Duration::from_secs(5)).await;
    assert_eq!(offline["online"], false, "{offline}");
    assert!(last_seen_ms(&offline) + 1 >= closed_at, "offline once the last socket on any node closed: {offline}");
}

#[tokio::test]
#[cfg_attr(taskhub_skip_redis, ignore = "TASKHUB_SKIP_REDIS is set")]
async fn a_killed_nodes_user_goes_offline_within_the_expiry() {
    let pair = Pair::new();
    let url = redis_url();
    let config = pair.config();
    let (_a, addr_a) = start(config.clone(), BusConfig::Redis { url: url.clone() }).await;
    let mut poster = signed_in(addr_a, &pair.poster).await;
    watch(&mut poster, &pair.tasker).await;

    // Node B runs on a runtime of its own, so dropping that runtime kills it mid-flight: its
    // sockets never say goodbye and it never reports the user gone.
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (kill_tx, kill_rx) = std::sync::mpsc::channel::<()>();
    let (tasker, node_config) = (pair.tasker.clone(), config.clone());
    let node_b = std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let socket = runtime.block_on(async {
            let (_b, addr_b) = start(node_config, BusConfig::Redis { url }).await;
            signed_in(addr_b, &tasker).await
        });
        ready_tx.send(()).unwrap();
        kill_rx.recv().unwrap();
        runtime.shutdown_background();
        std::mem::forget(socket);
    });
    ready_rx.recv().unwrap();
    assert_eq!(next_state(&mut poster, Duration::from_secs(5)).await["online"], true);

    let killed = Instant::now();
    let killed_ms = now_ms();
    kill_tx.send(()).unwrap();
    node_b.join().unwrap();
    let offline = next_state(&mut poster, Duration::from_secs(30)).await;
    let took = killed.elapsed();
    assert_eq!(offline["online"], false, "{offline}");
    assert!(took <= config.presence_ttl * 2 + config.presence_interval * 2, "took {took:?}");
    let seen = last_seen_ms(&offline);
    assert!(
        seen <= killed_ms && seen + config.presence_ttl.as_millis() as u64 >= killed_ms,
        "its last report: {offline}"
    );
}

#[tokio::test]
async fn turning_sharing_off_ends_what_open_screens_show_both_ways() {
    for bus in buses() {
        let pair = Pair::new();
        let (hub, addr) = start(pair.config(), bus.clone()).await;
        let mut poster = signed_in(addr, &pair.poster).await;
        let mut tasker = signed_in(addr, &pair.tasker).await;
        assert_eq!(watch(&mut poster, &pair.tasker).await["online"], true, "{bus:?}");
        assert_eq!(watch(&mut tasker, &pair.poster).await["online"], true, "{bus:?}");
        assert_eq!(watch(&mut poster, &pair.other_tasker).await["online"], false, "{bus:?}");

        hub.hide_online(&pair.tasker).await;
        for (client, about) in [(&mut poster, &pair.tasker), (&mut tasker, &pair.poster)] {
            let state = next_state(client, Duration::from_secs(5)).await;
            let expected =
                json!({"type": "presence", "topic": format!("user:{about}"), "online": false, "last_seen": null});
            assert_eq!(state, expected, "{bus:?}: nothing known any more");
        }

        // The tasker leaves and comes back; then the poster's other tasker comes online. The
        // poster hears that, and nothing of the tasker before it.
        drop(tasker);
        let _back = signed_in(addr, &pair.tasker).await;
        let _other = signed_in(addr, &pair.other_tasker).await;
        let next = next_state(&mut poster, Duration::from_secs(5)).await;
        assert_eq!(
            (next["topic"].as_str(), next["online"].as_bool()),
            (Some(&*format!("user:{}", pair.other_tasker)), Some(true)),
            "{bus:?}: {next}"
        );
        poster.send(json!({"type": "ping"})).await;
        assert_eq!(poster.next_any().await, json!({"type": "pong"}), "{bus:?}");
    }
}
