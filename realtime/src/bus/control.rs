//! Control messages between nodes: "close these sockets" ([`crate::Hub::disconnect`]). They go
//! on a channel of their own, never into a topic's history. Each is also kept in a short list
//! in Redis, so a node whose subscriber was cut off when one was published applies it once it
//! is back (pub/sub alone would lose it); the publishing node queues the ones Redis did not
//! take and publishes them when it answers again.

use std::{
    sync::{LazyLock, Mutex},
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use redis::{Script, aio::ConnectionManager};
use tokio::time::timeout;

use super::keys::OP_TIMEOUT;
use crate::sockets::Disconnect;

/// Not under `taskhub:rt:`, so no topic can name it.
pub(super) const CONTROL_CHANNEL: &str = "taskhub:rtctl";
const RECENT_KEY: &str = "taskhub:rtctl:recent";
/// How long and how many control messages are kept for nodes coming back to the bus.
const KEEP_FOR: Duration = Duration::from_secs(600);
const KEEP_COUNT: usize = 10_000;
/// Applied from the list when published this long before the node lost its subscriber
/// (clocks of nodes differ a little; closing a revoked session's socket twice is harmless).
const CLOCK_MARGIN_MS: u64 = 2_000;
/// Disconnects waiting for Redis on the publishing node, at most.
const MAX_QUEUED: usize = 10_000;

/// KEYS: recent list. ARGV: entry, count kept, ttl ms, channel.
static PUBLISH_CONTROL: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        redis.call('LPUSH', KEYS[1], ARGV[1])
        redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
        redis.call('PEXPIRE', KEYS[1], ARGV[3])
        redis.call('PUBLISH', ARGV[4], ARGV[1])
        return 1
        ",
    )
});

pub(super) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// `at_ms:code:s|u:id`.
fn encode(at_ms: u64, target: &Disconnect, code: u16) -> String {
    match target {
        Disconnect::Session(id) => format!("{at_ms}:{code}:s:{id}"),
        Disconnect::User(id) => format!("{at_ms}:{code}:u:{id}"),
    }
}

pub(super) struct ControlMessage {
    pub at_ms: u64,
    pub code: u16,
    pub target: Disconnect,
}

pub(super) fn parse(payload: &[u8]) -> Option<ControlMessage> {
    let text = std::str::from_utf8(payload).ok()?;
    let mut parts = text.splitn(4, ':');
    let at_ms = parts.next()?.parse().ok()?;
    let code = parts.next()?.parse().ok()?;
    let target = match (parts.next()?, parts.next()?) {
        ("s", id) => Disconnect::Session(id.to_owned()),
        ("u", id) => Disconnect::User(id.to_owned()),
        _ => return None,
    };
    Some(ControlMessage { at_ms, code, target })
}

/// Publishes one disconnect; false when Redis did not take it.
pub(super) async fn publish(conn: &ConnectionManager, target: &Disconnect, code: u16) -> bool {
    let mut conn = conn.clone();
    let mut invocation = PUBLISH_CONTROL.key(RECENT_KEY);
    invocation
        .arg(encode(now_ms(), target, code))
        .arg(KEEP_COUNT)
        .arg(KEEP_FOR.as_millis() as u64)
        .arg(CONTROL_CHANNEL);
    matches!(timeout(OP_TIMEOUT, invocation.invoke_async::<i64>(&mut conn)).await, Ok(Ok(_)))
}

/// The disconnects published since `since_ms` (less the clock margin), oldest first; None when
/// Redis did not answer.
pub(super) async fn published_since(conn: &ConnectionManager, since_ms: u64) -> Option<Vec<ControlMessage>> {
    let mut conn = conn.clone();
    let raw: Vec<Vec<u8>> =
        timeout(OP_TIMEOUT, redis::cmd("LRANGE").arg(RECENT_KEY).arg(0).arg(-1).query_async(&mut conn))
            .await
            .ok()?
            .ok()?;
    let from = since_ms.saturating_sub(CLOCK_MARGIN_MS);
    Some(raw.iter().rev().filter_map(|entry| parse(entry)).filter(|message| message.at_ms >= from).collect())
}

/// Disconnects Redis has not taken yet, published again once it answers.
#[derive(Default)]
pub(crate) struct Queued(Mutex<Vec<(Disconnect, u16)>>);

impl Queued {
    pub fn push(&self, target: Disconnect, code: u16) {
        let mut queued = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if queued.len() >= MAX_QUEUED {
            queued.remove(0);
        }
        queued.push((target, code));
    }

    /// Publishes what is queued, in order; stops at the first failure.
    pub async fn flush(&self, conn: &ConnectionManager) {
        loop {
            let next = self.0.lock().unwrap_or_else(|p| p.into_inner()).first().cloned();
            let Some((target, code)) = next else { return };
            if !publish(conn, &target, code).await {
                return;
            }
            let mut queued = self.0.lock().unwrap_or_else(|p| p.into_inner());
            if queued.first() == Some(&(target, code)) {
                queued.remove(0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_messages_read_back_as_written() {
        for target in [Disconnect::Session("0193-a:b".into()), Disconnect::User("u1".into())] {
            let message = parse(encode(42, &target, 4001).as_bytes()).expect("parses");
            assert_eq!((message.at_ms, message.code, message.target), (42, 4001, target));
        }
        assert!(parse(b"42:4001:x:id").is_none());
        assert!(parse(b"nonsense").is_none());
    }
}
