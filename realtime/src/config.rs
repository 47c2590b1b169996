use std::{fmt, sync::Arc, time::Duration};

use futures_util::future::BoxFuture;

/// Decides whether a socket may subscribe to a topic: `(user id of the socket, None when
/// anonymous, topic) -> allowed`.
pub type Authorize = Arc<dyn Fn(Option<&str>, &str) -> bool + Send + Sync>;

/// Says whether an authorized topic names something that exists (e.g. `task:{id}` of a real
/// task), so anonymous sockets cannot make the hub keep state for made-up topics. Asked once
/// per subscribe that passed `authorize` and the rate limit; keep it cheap (an indexed lookup,
/// a cache).
pub type TopicExists = Arc<dyn Fn(&str) -> BoxFuture<'static, bool> + Send + Sync>;

/// Which topics count their viewers (`presence` frames): `task:{id}` by default.
pub type CountViewers = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// Whom a `typing` message reaches: `(user id of the typing socket, task id) -> the other party's
/// user id`, None when the user is not one of the task's two parties (answered `forbidden`).
pub type TypingPeer = Arc<dyn Fn(&str, &str) -> BoxFuture<'static, Option<String>> + Send + Sync>;

/// Whether a socket of `watcher` may see `watched`'s online state (`online:{user id}`): for the
/// other party of an assigned task when both share their online state, with the time `watched`
/// was last seen as stored; None otherwise (answered `forbidden`).
pub type OnlineAccess = Arc<dyn Fn(&str, &str) -> BoxFuture<'static, Option<OnlineGrant>> + Send + Sync>;

/// What the server answers [`OnlineAccess`] with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OnlineGrant {
    /// When the watched user's last socket closed, as stored (unix ms).
    pub last_seen_ms: Option<u64>,
}

/// Called when a user's last socket on this node closed: `(user id, unix ms)`, for the server to
/// store as their last-seen time. Must not block (spawn the write).
pub type RecordLastSeen = Arc<dyn Fn(&str, u64) + Send + Sync>;

/// Tuning of the hub. `Default` gives production values (25 s ping, 60 s idle timeout).
#[derive(Clone)]
pub struct HubConfig {
    /// Open sockets at most; further upgrade requests get HTTP 503.
    pub max_connections: usize,
    /// Frames queued per socket before the socket counts as a slow consumer (closed with 4008).
    pub send_queue_capacity: usize,
    pub ping_interval: Duration,
    /// A socket that sends nothing (not even a pong) for this long is closed with 4009.
    pub idle_timeout: Duration,
    /// Events kept per topic for `since` recovery.
    pub history_len: usize,
    /// Events older than this are not replayed.
    pub history_max_age: Duration,
    /// Topics one socket may hold at once (its own `user:` topic included).
    pub max_subscriptions_per_connection: usize,
    /// Open sockets per client address ([`crate::Hub::accept_from`]); the next one is closed
    /// with 4029 ([`crate::CLOSE_TOO_MANY_CONNECTIONS`]).
    pub max_connections_per_client: usize,
    /// Subscribe messages one socket may send: a token bucket of `subscribe_burst` tokens
    /// refilled at `subscribes_per_second`. Past it: `error` with code `rate_limited`.
    pub subscribes_per_second: f64,
    pub subscribe_burst: u32,
    /// Topics nobody here watches, kept for `since` recovery; past this count the longest
    /// unwatched are forgotten first (their subscribers then get `recovered:false`).
    pub max_idle_topics: usize,
    /// Socket buffers: tungstenite's defaults (128 KiB read buffer, 128 KiB write target) would
    /// dominate the memory of an idle connection. A read buffer of 0 grows to the largest frame
    /// the client sent; tungstenite then reads at most 14 bytes per call, which suits clients
    /// that send a few small messages (subscribes, typing, pongs) and saves ~100 B per socket.
    pub read_buffer_size: usize,
    pub write_buffer_size: usize,
    pub max_write_buffer_size: usize,
    pub max_message_size: usize,
    pub authorize: Authorize,
    pub topic_exists: TopicExists,
    pub count_viewers: CountViewers,
    /// `presence` frames go out at most once per this period per topic (and only on change).
    pub presence_interval: Duration,
    /// With Redis, each node's count of a topic expires this long after its last report (nodes
    /// report every third of it), so a dead node's viewers vanish within about 4/3 of it.
    pub presence_ttl: Duration,
    /// A socket's `typing` messages past one per this period are ignored.
    pub typing_interval: Duration,
    /// Refetches a node asks its clients for after a resync, per second: each `subscribed` with
    /// `recovered:false` names its client's slot in `refetch_after_ms` (`refetch_pacer.rs`).
    pub resync_refetches_per_second: f64,
    pub typing_peer: TypingPeer,
    pub online_access: OnlineAccess,
    pub record_last_seen: RecordLastSeen,
}

impl Default for HubConfig {
    fn default() -> Self {
        Self {
            max_connections: 100_000,
            send_queue_capacity: 256,
            ping_interval: Duration::from_secs(25),
            idle_timeout: Duration::from_secs(60),
            history_len: 256,
            history_max_age: Duration::from_secs(300),
            max_subscriptions_per_connection: 64,
            max_connections_per_client: 50,
            subscribes_per_second: 10.0,
            subscribe_burst: 100,
            max_idle_topics: 10_000,
            read_buffer_size: 0,
            write_buffer_size: 4096,
            max_write_buffer_size: 256 * 1024,
            max_message_size: 16 * 1024,
            authorize: Arc::new(default_authorize),
            topic_exists: Arc::new(|_| Box::pin(std::future::ready(true))),
            count_viewers: Arc::new(|topic| topic.starts_with("task:")),
            presence_interval: Duration::from_secs(1),
            presence_ttl: Duration::from_secs(20),
            typing_interval: Duration::from_secs(2),
            resync_refetches_per_second: 200.0,
            typing_peer: Arc::new(|_, _| Box::pin(std::future::ready(None))),
            online_access: Arc::new(|_, _| Box::pin(std::future::ready(None))),
            record_last_seen: Arc::new(|_, _| {}),
        }
    }
}

impl fmt::Debug for HubConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HubConfig")
            .field("max_connections", &self.max_connections)
            .field("send_queue_capacity", &self.send_queue_capacity)
            .field("ping_interval", &self.ping_interval)
            .field("idle_timeout", &self.idle_timeout)
            .field("history_len", &self.history_len)
            .field("history_max_age", &self.history_max_age)
            .field("max_subscriptions_per_connection", &self.max_subscriptions_per_connection)
            .field("max_connections_per_client", &self.max_connections_per_client)
            .field("subscribes_per_second", &self.subscribes_per_second)
            .field("subscribe_burst", &self.subscribe_burst)
            .field("max_idle_topics", &self.max_idle_topics)
            .field("read_buffer_size", &self.read_buffer_size)
            .field("write_buffer_size", &self.write_buffer_size)
            .field("max_write_buffer_size", &self.max_write_buffer_size)
            .field("max_message_size", &self.max_message_size)
            .field("presence_interval", &self.presence_interval)
            .field("presence_ttl", &self.presence_ttl)
            .field("typing_interval", &self.typing_interval)
            .field("resync_refetches_per_second", &self.resync_refetches_per_second)
            .finish_non_exhaustive()
    }
}

/// `user:{id}` only for that user; `tasks` and `task:{id}` for everyone; anything else refused.
pub fn default_authorize(user_id: Option<&str>, topic: &str) -> bool {
    if topic == "tasks" {
        return true;
    }
    if let Some(id) = topic.strip_prefix("task:") {
        return !id.is_empty();
    }
    if let Some(id) = topic.strip_prefix("user:") {
        return user_id.is_some_and(|me| !me.is_empty() && me == id);
    }
    false
}

/// Where events travel between nodes.
#[derive(Debug, Clone)]
pub enum BusConfig {
    /// One process: events never leave it.
    Local,
    /// Redis pub/sub: every node sees every event of the topics its sockets watch.
    Redis { url: String },
}

#[cfg(test)]
mod tests {
    use super::default_authorize;

    #[test]
    fn user_topic_is_only_for_its_user() {
        assert!(default_authorize(Some("u1"), "user:u1"));
        assert!(!default_authorize(Some("u2"), "user:u1"));
        assert!(!default_authorize(None, "user:u1"));
        assert!(!default_authorize(Some(""), "user:"));
    }

    #[test]
    fn task_topics_are_public_and_others_refused() {
        assert!(default_authorize(None, "tasks"));
        assert!(default_authorize(None, "task:abc"));
        assert!(!default_authorize(None, "task:"));
        assert!(!default_authorize(Some("u1"), "admin"));
    }
}
