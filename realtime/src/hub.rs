use std::{
    net::IpAddr,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering::Relaxed},
    },
};

use axum::extract::ws::{Utf8Bytes, WebSocketUpgrade};
use serde_json::Value;
use tokio::{
    sync::{OwnedSemaphorePermit, Semaphore},
    task::JoinHandle,
};

use crate::{
    BusConfig, CLOSE_GOING_AWAY, HubConfig, HubStats,
    bus::{self, Bus},
    clients::{ClientSlot, ClientSlots},
    handle::{ConnHandle, SocketOwner},
    heartbeat,
    online::{self, OnlineUsers},
    protocol::{self, EventTemplate},
    queue::Outbound,
    sockets::{Disconnect, OpenSockets},
    stats::Stats,
    topics::Registry,
};

/// The WebSocket hub. Cheap to clone; all clones share one hub.
#[derive(Clone)]
pub struct Hub {
    inner: Arc<Inner>,
}

struct Inner {
    config: HubConfig,
    registry: Arc<Registry>,
    bus: Bus,
    stats: Arc<Stats>,
    permits: Arc<Semaphore>,
    clients: Arc<ClientSlots>,
    next_connection_id: AtomicU64,
    /// Every open socket, so `shutdown` can close them all and the bus can tell them when live
    /// updates are degraded.
    sockets: Arc<OpenSockets>,
    /// Signed-in sockets per user, and the sockets watching whether a user is online.
    online: Arc<OnlineUsers>,
    shutting_down: AtomicBool,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Hub {
    /// Starts the hub and its background tasks. With the Redis bus, fails only on an invalid
    /// URL: a Redis that is down is waited for (with backoff) while this node serves its own
    /// sockets, and `is_bus_healthy` stays false until it answers.
    pub async fn start(config: HubConfig, bus: BusConfig) -> anyhow::Result<Hub> {
        let stats = Arc::new(Stats::default());
        let registry = Registry::new(config.history_len, config.history_max_age, config.max_idle_topics, stats.clone());
        let registry = Arc::new(
            registry.with_counted(config.count_viewers.clone()).with_refetch_rate(config.resync_refetches_per_second),
        );
        let sockets = Arc::new(OpenSockets::new(stats.clone()));
        let online = Arc::new(OnlineUsers::default());
        let (bus, mut tasks) =
            bus::start(bus, &config, registry.clone(), sockets.clone(), online.clone(), stats.clone()).await?;
        tasks.push(heartbeat::start(sockets.clone(), config.ping_interval, config.idle_timeout));
        let permits = Arc::new(Semaphore::new(config.max_connections));
        Ok(Hub {
            inner: Arc::new(Inner {
                config,
                registry,
                bus,
                stats,
                permits,
                clients: Arc::new(ClientSlots::default()),
                next_connection_id: AtomicU64::new(1),
                sockets,
                online,
                shutting_down: AtomicBool::new(false),
                tasks,
            }),
        })
    }

    /// Assigns the next sequence number on the topic, serializes the event once and delivers it
    /// to the topic's sockets on every node. Never waits on a client; with Redis unreachable it
    /// still delivers to this node's sockets.
    pub async fn publish(&self, topic: &str, event: &str, data: &Value) {
        self.publish_templates(event_templates([(topic, event, data)])).await;
    }

    /// [`Hub::publish`] for many events, each `(topic, event, data)`: with Redis, one round trip
    /// for all of them (a task's alerts notify hundreds of taskers). Each topic's events keep the
    /// order given.
    pub async fn publish_all(&self, events: &[(&str, &str, Value)]) {
        self.publish_templates(event_templates(events.iter().map(|(topic, event, data)| (*topic, *event, data)))).await;
    }

    async fn publish_templates(&self, templates: Vec<(&str, EventTemplate)>) {
        let inner = &self.inner;
        inner.stats.published(templates.len() as u64);
        let only_if_watched = match &inner.bus {
            Bus::Local => false,
            Bus::Redis(redis) if redis.publish_all(&templates).await => return,
            Bus::Redis(_) => true,
        };
        for (topic, template) in &templates {
            inner.registry.publish_local(topic, template, only_if_watched);
        }
    }

    /// Hands `frame` to the topic's sockets on every node without numbering or keeping it
    /// (typing indicators): a socket that subscribes later never sees it.
    pub(crate) async fn send_ephemeral(&self, topic: &str, frame: Utf8Bytes) {
        let inner = &self.inner;
        let sent = match &inner.bus {
            Bus::Local => false,
            Bus::Redis(redis) => redis.publish_ephemeral(topic, &frame).await,
        };
        if !sent {
            inner.registry.deliver_ephemeral(topic, &frame);
        }
    }

    /// A connection permit, unless the hub is shutting down or full (then counted as refused).
    pub(crate) fn admit(&self) -> Option<OwnedSemaphorePermit> {
        let permit = match self.inner.shutting_down.load(Relaxed) {
            true => None,
            false => self.inner.permits.clone().try_acquire_owned().ok(),
        };
        if permit.is_none() {
            self.inner.stats.connection_refused();
        }
        permit
    }

    /// One of `client`'s `max_connections_per_client` slots, if it has one left.
    pub(crate) fn client_slot(&self, client: IpAddr) -> Option<ClientSlot> {
        self.inner.clients.take(client, self.inner.config.max_connections_per_client)
    }

    /// For a graceful restart: refuses new sockets (503) and closes every open one with 1001
    /// ("going away"), so clients reconnect, to another node or to this one once restarted.
    pub fn shutdown(&self) {
        self.inner.shutting_down.store(true, Relaxed);
        self.inner.sockets.close_all(CLOSE_GOING_AWAY);
    }

    /// Closes every socket of the session or user with `code` ([`crate::CLOSE_UNAUTHORIZED`]
    /// for a session that ended), on every node: at once on this one, even while Redis is
    /// unreachable, and on the others through the bus (a control message, never part of any
    /// topic's history). A node that was off the bus meanwhile applies it when it is back.
    pub async fn disconnect(&self, target: Disconnect, code: u16) {
        let closed = self.inner.sockets.disconnect(&target, code);
        tracing::debug!(?target, code, closed, "sockets disconnected on this node");
        if let Bus::Redis(redis) = &self.inner.bus {
            redis.disconnect(&target, code).await;
        }
    }

    pub fn stats(&self) -> HubStats {
        self.inner.stats.snapshot()
    }

    /// True with the in-process bus; with Redis, when the subscriber connection is up and
    /// Redis answers PING.
    pub async fn is_bus_healthy(&self) -> bool {
        match &self.inner.bus {
            Bus::Local => true,
            Bus::Redis(redis) => redis.is_healthy().await,
        }
    }

    /// False while this node has lost the cross-node bus and its sockets were told live updates
    /// are degraded (`{"type":"status","live":"degraded"}`).
    pub fn is_live(&self) -> bool {
        !self.inner.sockets.is_degraded()
    }

    /// Topics this node keeps state for (watched, or recently unwatched: at most
    /// `max_idle_topics` of those).
    pub fn topic_count(&self) -> usize {
        self.inner.registry.topic_count()
    }

    pub(crate) fn configure(&self, ws: WebSocketUpgrade) -> WebSocketUpgrade {
        let config = &self.inner.config;
        ws.read_buffer_size(config.read_buffer_size)
            .write_buffer_size(config.write_buffer_size)
            .max_write_buffer_size(config.max_write_buffer_size)
            .max_message_size(config.max_message_size)
            .max_frame_size(config.max_message_size)
    }

    pub(crate) fn config(&self) -> &HubConfig {
        &self.inner.config
    }

    /// Milliseconds on the socket clock (heartbeat times).
    pub(crate) fn now_ms(&self) -> u64 {
        self.inner.sockets.now_ms()
    }

    pub(crate) fn stats_ref(&self) -> &Stats {
        &self.inner.stats
    }

    pub(crate) fn register(&self, owner: Option<SocketOwner>, client: Option<IpAddr>) -> Arc<ConnHandle> {
        let id = self.inner.next_connection_id.fetch_add(1, Relaxed);
        let capacity = self.inner.config.send_queue_capacity.max(2);
        let conn = Arc::new(ConnHandle::new(id, owner, client, capacity, self.inner.sockets.now_ms()));
        self.inner.sockets.add(conn.clone());
        if let Some(owner) = &conn.owner {
            self.inner.online.opened(&owner.user_id);
        }
        self.inner.stats.connection_opened();
        if self.inner.shutting_down.load(Relaxed) {
            conn.close(CLOSE_GOING_AWAY);
        }
        conn
    }

    pub(crate) fn unregister(&self, conn: &ConnHandle) {
        self.inner.sockets.remove(conn.id);
        if let Some(owner) = &conn.owner {
            let now = protocol::now_ms();
            if self.inner.online.closed(&owner.user_id, now) {
                (self.inner.config.record_last_seen)(&owner.user_id, now);
            }
        }
        self.inner.stats.connection_closed();
    }

    /// Subscribes a socket; false when it could not be (its queue is full).
    pub(crate) async fn join(&self, conn: &Arc<ConnHandle>, topic: &str, since: Option<u64>) -> bool {
        let inner = &self.inner;
        let joined = match &inner.bus {
            Bus::Local => inner.registry.subscribe(topic, conn, since, None, false),
            Bus::Redis(redis) => {
                inner.registry.begin_subscribe(topic);
                let pending = PendingSubscription { hub: self, topic, armed: true };
                let remote = redis.prepare_subscribe(topic, since).await;
                pending.disarm();
                inner.registry.subscribe(topic, conn, since, remote, true)
            }
        };
        if !joined {
            self.leave(topic, conn.id);
        }
        joined
    }

    pub(crate) fn leave(&self, topic: &str, conn_id: u64) {
        let inner = &self.inner;
        if let Some(user) = online::watched_user(topic) {
            if inner.online.unwatch(user, conn_id) {
                self.lost_interest(topic);
            }
            return;
        }
        let clustered = matches!(inner.bus, Bus::Redis(_));
        if inner.registry.unsubscribe(topic, conn_id, clustered) {
            self.lost_interest(topic);
        }
    }

    /// `user` turned sharing their online state off: on every node, the sockets watching them
    /// and their own sockets watching anyone are told "offline, never seen" and then nothing
    /// more (until they subscribe again and the server allows it). Subscriptions made later are
    /// the server's to refuse (`online_access`).
    pub async fn hide_online(&self, user: &str) {
        let inner = &self.inner;
        inner.online.hide(user, &inner.stats);
        if let Bus::Redis(redis) = &inner.bus
            && !redis.hide_online(user).await
        {
            tracing::warn!("redis unreachable; the other nodes' watchers keep what they were told");
        }
    }

    /// Subscribes a socket to `online:{user}` when the server allows it
    /// (`HubConfig::online_access`): queues `subscribed` and the user's state now. Otherwise
    /// answers `forbidden`. False when the socket was not subscribed.
    pub(crate) async fn watch_online(&self, conn: &Arc<ConnHandle>, user: &str) -> bool {
        let inner = &self.inner;
        let topic = online::topic(user);
        let grant = match &conn.owner {
            Some(owner) => (inner.config.online_access)(&owner.user_id, user).await,
            None => None,
        };
        let Some(grant) = grant else {
            // Asked again after sharing was turned off: the earlier subscription ends too.
            self.leave(&topic, conn.id);
            let message =
                "only the other party of an assigned task sees whether this user is online, when both share it";
            conn.deliver(Outbound::Frame(protocol::error("forbidden", message, Some(&topic))), &inner.stats);
            return false;
        };
        let here = inner.online.local_state(user);
        let state = match &inner.bus {
            Bus::Local => here,
            Bus::Redis(redis) => redis.prepare_watch_online(user, inner.online.local_count(user)).await.unwrap_or(here),
        };
        let watching = inner.online.watch(conn, user, state.seen_no_earlier_than(grant.last_seen_ms), &inner.stats);
        if !watching && !inner.online.is_watched(user) {
            self.lost_interest(&topic);
        }
        watching
    }

    fn lost_interest(&self, topic: &str) {
        if let Bus::Redis(redis) = &self.inner.bus {
            redis.unwatch(topic);
        }
    }
}

/// Undoes `begin_subscribe` when the socket goes away while waiting on Redis.
struct PendingSubscription<'a> {
    hub: &'a Hub,
    topic: &'a str,
    armed: bool,
}

impl PendingSubscription<'_> {
    fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for PendingSubscription<'_> {
    fn drop(&mut self) {
        if self.armed && self.hub.inner.registry.abort_subscribe(self.topic, true) {
            self.hub.lost_interest(self.topic);
        }
    }
}

/// Each event serialized once, leaving out (and logging) any whose topic is invalid.
fn event_templates<'a>(
    events: impl IntoIterator<Item = (&'a str, &'a str, &'a Value)>,
) -> Vec<(&'a str, EventTemplate)> {
    events
        .into_iter()
        .filter(|(topic, _, _)| match protocol::check_topic(topic) {
            Ok(()) => true,
            Err(reason) => {
                tracing::error!(topic, reason, "event not published: invalid topic");
                false
            }
        })
        .map(|(topic, event, data)| (topic, EventTemplate::new(topic, event, data)))
        .collect()
}
