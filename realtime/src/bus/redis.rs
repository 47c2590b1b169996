//! The Redis bus. Sequence numbers and history live in Redis, so recovery works whichever node
//! a client reconnects to; one Lua script assigns the number, records the event and publishes
//! it atomically, so every node sees a topic's events in sequence order.

use std::{
    collections::HashSet,
    sync::{
        Arc, LazyLock, Mutex,
        atomic::{AtomicBool, Ordering::Relaxed},
    },
    time::Duration,
};

use anyhow::Context;
use axum::extract::ws::Utf8Bytes;
use redis::{
    Script,
    aio::{ConnectionManager, ConnectionManagerConfig},
};
use tokio::{
    sync::{mpsc, oneshot},
    task::JoinHandle,
    time::timeout,
};

use super::{
    control::{self, Queued},
    keys::{EPHEMERAL_PREFIX, Keys, OP_TIMEOUT, channel, history_key, seq_key},
    online as online_bus, presence,
    subscriber::{self, Command},
};
use crate::{
    Disconnect, HubConfig,
    online::{self, OnlineState, OnlineUsers},
    protocol::{self, EventTemplate},
    sockets::OpenSockets,
    stats::Stats,
    topics::{Registry, RemoteSnapshot},
};

/// Publishes a batch of events, in order. KEYS: seq, history and channel of each event's topic.
/// ARGV: sequence base, history length, ttl ms, then at_ms, frame prefix and frame suffix of each
/// event. The sequence number is read back with GET because Lua would print a large number in
/// exponent form. Entries are `seq:at_ms:frame`. A batch is one round trip whatever its size;
/// in Redis the per-event work stays most of the cost (`INFO commandstats` at 650 events a task:
/// 9.1 µs an event one call each, 8.1 µs in calls of 100).
static PUBLISH: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        local base, keep, ttl = ARGV[1], -tonumber(ARGV[2]), ARGV[3]
        for i = 0, #KEYS / 3 - 1 do
            local seq_key, history_key, channel = KEYS[3 * i + 1], KEYS[3 * i + 2], KEYS[3 * i + 3]
            redis.call('SET', seq_key, base, 'NX')
            redis.call('INCR', seq_key)
            local seq = redis.call('GET', seq_key)
            local entry = seq .. ':' .. ARGV[3 * i + 4] .. ':' .. ARGV[3 * i + 5] .. seq .. ARGV[3 * i + 6]
            redis.call('RPUSH', history_key, entry)
            redis.call('LTRIM', history_key, keep, -1)
            redis.call('PEXPIRE', seq_key, ttl)
            redis.call('PEXPIRE', history_key, ttl)
            redis.call('PUBLISH', channel, entry)
        end
        return #KEYS / 3
        ",
    )
});

/// At most this many events in one [`PUBLISH`] call: Redis runs nothing else meanwhile.
const PUBLISH_BATCH: usize = 100;

pub(crate) struct RedisBus {
    keys: Keys,
    commands: mpsc::UnboundedSender<Command>,
    connected: Arc<AtomicBool>,
    /// Set by the subscriber from a failed connection until it is back: publishes then skip
    /// Redis rather than each wait for a reconnection attempt that will fail.
    unreachable: Arc<AtomicBool>,
    /// Topics with events delivered here only (Redis was unreachable), to be announced as
    /// resyncs once it answers again.
    diverged: Arc<Mutex<HashSet<String>>>,
    /// Topics subscribed here without Redis's sequence number, so numbered here, to be caught
    /// up with Redis once it answers.
    numbered_here: Arc<Mutex<HashSet<String>>>,
    /// Disconnects Redis did not take, published once it answers.
    queued_disconnects: Arc<Queued>,
    /// This node's name in the hashes of who is online.
    online_node: Arc<str>,
    online_ttl: Duration,
}

impl RedisBus {
    pub async fn start(
        url: &str,
        hub: &HubConfig,
        registry: Arc<Registry>,
        sockets: Arc<OpenSockets>,
        online: Arc<OnlineUsers>,
        stats: Arc<Stats>,
    ) -> anyhow::Result<(Self, Vec<JoinHandle<()>>)> {
        let client = redis::Client::open(url).context("invalid Redis URL")?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(OP_TIMEOUT))
            .set_response_timeout(Some(OP_TIMEOUT))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_secs(1));
        // Lazy: a node whose Redis is not up yet still starts and serves its own sockets;
        // readiness (`is_healthy`) tells the load balancer.
        let conn = ConnectionManager::new_lazy_with_config(client.clone(), config)
            .context("cannot set up the Redis connection for the realtime bus")?;
        let keys =
            Keys { conn, history_len: hub.history_len.max(1), ttl_ms: hub.history_max_age.as_millis().max(1) as u64 };
        let (commands, rx) = mpsc::unbounded_channel();
        let connected = Arc::new(AtomicBool::new(false));
        let unreachable = Arc::new(AtomicBool::new(false));
        let diverged = Arc::new(Mutex::new(HashSet::new()));
        let numbered_here = Arc::new(Mutex::new(HashSet::new()));
        let queued_disconnects = Arc::new(Queued::default());
        let presence = presence::spawn(keys.conn.clone(), registry.clone(), hub.presence_interval, hub.presence_ttl);
        let online_node: Arc<str> = uuid::Uuid::new_v4().to_string().into();
        let (period, online_ttl) = (hub.presence_interval, hub.presence_ttl);
        let who_is_online = online_bus::spawn(
            keys.conn.clone(),
            online_node.clone(),
            online.clone(),
            stats.clone(),
            period,
            online_ttl,
        );
        let task = tokio::spawn(subscriber::run(subscriber::Subscriber {
            client,
            keys: keys.clone(),
            registry,
            online,
            stats,
            sockets,
            commands: rx,
            connected: connected.clone(),
            unreachable: unreachable.clone(),
            diverged: diverged.clone(),
            numbered_here: numbered_here.clone(),
            queued_disconnects: queued_disconnects.clone(),
        }));
        let bus = Self {
            keys,
            commands,
            connected,
            unreachable,
            diverged,
            numbered_here,
            queued_disconnects,
            online_node,
            online_ttl,
        };
        Ok((bus, vec![task, presence, who_is_online]))
    }

    /// Publishes events in order: each numbered, kept and delivered on every node as on its own,
    /// in one round trip (a task's alerts notify hundreds of taskers). False when Redis did not
    /// take them; the caller then delivers them all locally.
    pub async fn publish_all(&self, events: &[(&str, EventTemplate)]) -> bool {
        if events.is_empty() {
            return true;
        }
        if self.unreachable.load(Relaxed) {
            events.iter().for_each(|(topic, _)| self.diverge(topic));
            return false;
        }
        let mut pipe = redis::pipe();
        pipe.load_script(&PUBLISH).ignore();
        for batch in events.chunks(PUBLISH_BATCH) {
            let mut invocation = PUBLISH.prepare_invoke();
            invocation.arg(protocol::sequence_base()).arg(self.keys.history_len).arg(self.keys.ttl_ms);
            for (topic, template) in batch {
                invocation.key(seq_key(topic)).key(history_key(topic)).key(channel(topic));
                invocation.arg(template.at_ms).arg(&template.prefix).arg(&template.suffix);
            }
            pipe.invoke_script(&invocation).ignore();
        }
        let mut conn = self.keys.conn.clone();
        match timeout(OP_TIMEOUT, pipe.query_async::<()>(&mut conn)).await {
            Ok(Ok(())) => true,
            failure => {
                let reason = match failure {
                    Ok(Err(error)) => error.to_string(),
                    _ => "timed out".to_owned(),
                };
                tracing::warn!(events = events.len(), reason, "redis publish failed; delivering on this node only");
                events.iter().for_each(|(topic, _)| self.diverge(topic));
                false
            }
        }
    }

    /// Hands a frame to the topic's sockets on every node, outside its history; false when
    /// Redis did not take it (the caller then delivers it locally).
    pub async fn publish_ephemeral(&self, topic: &str, frame: &Utf8Bytes) -> bool {
        if self.unreachable.load(Relaxed) {
            return false;
        }
        let mut payload = Vec::with_capacity(EPHEMERAL_PREFIX.len() + frame.len());
        payload.extend_from_slice(EPHEMERAL_PREFIX);
        payload.extend_from_slice(frame.as_bytes());
        let mut conn = self.keys.conn.clone();
        let mut publish = redis::cmd("PUBLISH");
        publish.arg(channel(topic)).arg(payload);
        matches!(timeout(OP_TIMEOUT, publish.query_async::<i64>(&mut conn)).await, Ok(Ok(_)))
    }

    /// Tells the other nodes to close the matching sockets (this node closed its own already).
    pub async fn disconnect(&self, target: &Disconnect, code: u16) {
        if self.unreachable.load(Relaxed) || !control::publish(&self.keys.conn, target, code).await {
            tracing::warn!(?target, "redis unreachable; the other nodes will close the sockets once it is back");
            self.queued_disconnects.push(target.clone(), code);
        }
    }

    /// Notes that the topic's event was delivered on this node only, to announce a resync later.
    fn diverge(&self, topic: &str) {
        self.diverged.lock().unwrap_or_else(|p| p.into_inner()).insert(topic.to_owned());
    }

    /// Makes sure this node receives the topic, then reads its sequence number and (with
    /// `since`) its history. None when Redis cannot help; the hub then uses local state, numbering
    /// the topic here, and the subscriber catches the topic up with Redis once it answers (a
    /// number of this node's could be above Redis's, and every event from another node would
    /// then be dropped as one already delivered).
    pub async fn prepare_subscribe(&self, topic: &str, since: Option<u64>) -> Option<RemoteSnapshot> {
        let snapshot = self.watch_and_read(topic, since).await;
        if snapshot.is_none() {
            self.numbered_here.lock().unwrap_or_else(|p| p.into_inner()).insert(topic.to_owned());
        }
        snapshot
    }

    async fn watch_and_read(&self, topic: &str, since: Option<u64>) -> Option<RemoteSnapshot> {
        let (ack, acked) = oneshot::channel();
        self.commands.send(Command::Watch(topic.to_owned(), ack)).ok()?;
        if !matches!(timeout(OP_TIMEOUT, acked).await, Ok(Ok(true))) {
            return None;
        }
        let snapshot = self.keys.snapshot(topic, since.is_some());
        timeout(OP_TIMEOUT, snapshot).await.ok()?.ok()
    }

    /// Makes sure this node hears when the user comes or goes, then reads their state over every
    /// node (reporting this node's `count_here` of their sockets). None when Redis cannot help.
    pub async fn prepare_watch_online(&self, user: &str, count_here: u32) -> Option<OnlineState> {
        if self.unreachable.load(Relaxed) {
            return None;
        }
        let (ack, acked) = oneshot::channel();
        self.commands.send(Command::Watch(online::topic(user), ack)).ok()?;
        if !matches!(timeout(OP_TIMEOUT, acked).await, Ok(Ok(true))) {
            return None;
        }
        online_bus::report(&self.keys.conn, &self.online_node, user, count_here, self.online_ttl).await
    }

    /// Tells every node that `user` turned sharing their online state off: the nodes watching
    /// them, and the nodes holding their sockets. False when Redis did not take it.
    pub async fn hide_online(&self, user: &str) -> bool {
        let mut conn = self.keys.conn.clone();
        let mut pipe = redis::pipe();
        pipe.publish(channel(&online::topic(user)), online_bus::HIDE_ONLINE).ignore();
        pipe.publish(channel(&format!("user:{user}")), online_bus::HIDE_ONLINE).ignore();
        matches!(timeout(OP_TIMEOUT, pipe.query_async::<()>(&mut conn)).await, Ok(Ok(())))
    }

    pub fn unwatch(&self, topic: &str) {
        let _ = self.commands.send(Command::Unwatch(topic.to_owned()));
    }

    pub async fn is_healthy(&self) -> bool {
        if !self.connected.load(Relaxed) {
            return false;
        }
        let mut conn = self.keys.conn.clone();
        let ping = redis::cmd("PING");
        matches!(timeout(OP_TIMEOUT, ping.query_async::<String>(&mut conn)).await, Ok(Ok(_)))
    }
}
