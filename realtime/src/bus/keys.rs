//! A topic's keys and channel in Redis, what a message on the channel carries, and the reads and
//! scripts on them the bus and its subscriber share (the sequence number, the history, a resync).

use std::{sync::LazyLock, time::Duration};

use axum::extract::ws::Utf8Bytes;
use bytes::Bytes;
use redis::{Script, aio::ConnectionManager};
use tokio::time::timeout;

use crate::{
    history::Entry,
    presence::Counts,
    protocol,
    topics::{Registry, RemoteSnapshot},
};

/// Longest a publish or subscribe waits on Redis before carrying on without it.
pub(super) const OP_TIMEOUT: Duration = Duration::from_millis(1000);
pub(super) const CHANNEL_PREFIX: &str = "taskhub:rt:";
pub(super) const RESYNC_PREFIX: &[u8] = b"resync:";
pub(super) const EPHEMERAL_PREFIX: &[u8] = b"ephemeral:";
pub(super) const PRESENCE_PREFIX: &[u8] = b"presence:";

/// Marks a break in a topic's history (events were delivered while Redis was unreachable):
/// the history is dropped so no `since` from before can claim recovery, and every node tells
/// its subscribers to resync. KEYS: seq, history, channel. ARGV: sequence base, ttl ms.
static RESYNC: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        redis.call('SET', KEYS[1], ARGV[1], 'NX')
        redis.call('INCR', KEYS[1])
        local seq = redis.call('GET', KEYS[1])
        redis.call('DEL', KEYS[2])
        redis.call('PEXPIRE', KEYS[1], ARGV[2])
        redis.call('PUBLISH', KEYS[3], 'resync:' .. seq)
        return seq
        ",
    )
});

pub(super) fn channel(topic: &str) -> String {
    format!("{CHANNEL_PREFIX}{topic}")
}

pub(super) fn seq_key(topic: &str) -> String {
    format!("{CHANNEL_PREFIX}{{{topic}}}:seq")
}

pub(super) fn history_key(topic: &str) -> String {
    format!("{CHANNEL_PREFIX}{{{topic}}}:history")
}

pub(super) enum Payload {
    Event(Entry),
    Resync(u64),
    /// The topic's viewer total over every node ([`super::presence`]).
    Presence(Counts),
    /// A frame for the topic's sockets, neither numbered nor kept (typing).
    Ephemeral(Utf8Bytes),
}

pub(super) fn parse_payload(payload: &[u8]) -> Option<Payload> {
    if let Some(counts) = payload.strip_prefix(PRESENCE_PREFIX) {
        return parse_counts(counts).map(Payload::Presence);
    }
    if let Some(frame) = payload.strip_prefix(EPHEMERAL_PREFIX) {
        return Utf8Bytes::try_from(Bytes::copy_from_slice(frame)).ok().map(Payload::Ephemeral);
    }
    if let Some(seq) = payload.strip_prefix(RESYNC_PREFIX) {
        return std::str::from_utf8(seq).ok()?.parse().ok().map(Payload::Resync);
    }
    let mut parts = payload.splitn(3, |&b| b == b':');
    let seq = std::str::from_utf8(parts.next()?).ok()?.parse().ok()?;
    let at_ms = std::str::from_utf8(parts.next()?).ok()?.parse().ok()?;
    let frame = Utf8Bytes::try_from(Bytes::copy_from_slice(parts.next()?)).ok()?;
    Some(Payload::Event(Entry { seq, at_ms, frame }))
}
pub(super) fn parse_counts(text: &[u8]) -> Option<Counts> {
    let text = std::str::from_utf8(text).ok()?;
    let (viewers, taskers) = text.split_once(':')?;
    Some((viewers.parse().ok()?, taskers.parse().ok()?))
}

#[derive(Clone)]
pub(super) struct Keys {
    pub conn: ConnectionManager,
    pub history_len: usize,
    pub ttl_ms: u64,
}

impl Keys {
    /// The topic's current sequence number (starting the sequence if it has none) and, when
    /// asked, its history.
    pub(super) async fn snapshot(&self, topic: &str, with_history: bool) -> redis::RedisResult<RemoteSnapshot> {
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("SET")
            .arg(seq_key(topic))
            .arg(protocol::sequence_base())
            .arg("NX")
            .arg("PX")
            .arg(self.ttl_ms)
            .ignore()
            .get(seq_key(topic));
        let mut conn = self.conn.clone();
        let (current, raw): (Option<u64>, Vec<Vec<u8>>) = if with_history {
            pipe.lrange(history_key(topic), 0, -1);
            pipe.query_async(&mut conn).await?
        } else {
            let (current,): (Option<u64>,) = pipe.query_async(&mut conn).await?;
            (current, Vec::new())
        };
        let entries = raw
            .iter()
            .filter_map(|raw| match parse_payload(raw) {
                Some(Payload::Event(entry)) => Some(entry),
                _ => None,
            })
            .collect();
        Ok(RemoteSnapshot { current: current.unwrap_or(0), entries })
    }

    pub async fn current_seq(&self, topic: &str) -> Option<u64> {
        let snapshot = timeout(OP_TIMEOUT, self.snapshot(topic, false)).await.ok()?.ok()?;
        Some(snapshot.current)
    }

    /// Back on the bus: brings the topic's local subscribers up to Redis ([`Registry::catch_up`]),
    /// reading its history only when its sequence number moved. False when Redis did not answer.
    pub async fn catch_up(&self, registry: &Registry, topic: &str) -> bool {
        let Some(current) = self.current_seq(topic).await else { return false };
        if registry.last_seq(topic) == Some(current) {
            return true;
        }
        match timeout(OP_TIMEOUT, self.snapshot(topic, true)).await {
            Ok(Ok(snapshot)) => {
                registry.catch_up(topic, &snapshot);
                true
            }
            _ => false,
        }
    }

    pub async fn announce_resync(&self, topic: &str) -> bool {
        let mut conn = self.conn.clone();
        let mut invocation = RESYNC.key(seq_key(topic));
        invocation.key(history_key(topic)).key(channel(topic));
        invocation.arg(protocol::sequence_base()).arg(self.ttl_ms);
        let result = timeout(OP_TIMEOUT, invocation.invoke_async::<u64>(&mut conn)).await;
        matches!(result, Ok(Ok(_)))
    }
}
