//! Viewer counts across nodes. Each node reports its own count of a topic into one Redis hash
//! per topic (field: the node, value: `viewers:taskers:expires_ms`); a script drops the expired
//! fields, sums the rest and, when the sum changed, publishes it on the topic's channel
//! (`presence:viewers:taskers`, never recorded in its history). A node reports a topic when its
//! count changed and every third of `presence_ttl` regardless, so a dead node's count expires
//! and the next report of any other node publishes the lower total.

use std::{
    sync::{Arc, LazyLock},
    time::Duration,
};

use redis::{Script, aio::ConnectionManager};
use tokio::{task::JoinHandle, time::timeout};

use super::{
    control::now_ms,
    keys::{CHANNEL_PREFIX, OP_TIMEOUT, channel, parse_counts},
    report_loop::{Pass, ReportTicks, add_all},
};
use crate::{presence::Counts, topics::Registry};

/// KEYS: hash, channel. ARGV: node, viewers, taskers, now ms, ttl ms. Returns `viewers:taskers`.
static REPORT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        local now = tonumber(ARGV[4])
        if tonumber(ARGV[2]) == 0 then
            redis.call('HDEL', KEYS[1], ARGV[1])
        else
            redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. ARGV[3] .. ':' .. (now + tonumber(ARGV[5])))
        end
        local viewers, taskers = 0, 0
        local fields = redis.call('HGETALL', KEYS[1])
        for i = 1, #fields, 2 do
            if fields[i] ~= 'sent' then
                local v, t, expires = string.match(fields[i + 1], '^(%d+):(%d+):(%d+)$')
                if expires == nil or tonumber(expires) < now then
                    redis.call('HDEL', KEYS[1], fields[i])
                else
                    viewers = viewers + tonumber(v)
                    taskers = taskers + tonumber(t)
                end
            end
        end
        local total = viewers .. ':' .. taskers
        if redis.call('HGET', KEYS[1], 'sent') ~= total then
            redis.call('HSET', KEYS[1], 'sent', total)
            redis.call('PUBLISH', KEYS[2], 'presence:' .. total)
        end
        redis.call('PEXPIRE', KEYS[1], 2 * tonumber(ARGV[5]))
        return total
        ",
    )
});

fn hash_key(topic: &str) -> String {
    format!("{CHANNEL_PREFIX}{{{topic}}}:viewers")
}

async fn report(conn: &ConnectionManager, node: &str, topic: &str, counts: Counts, ttl: Duration) -> Option<Counts> {
    let mut conn = conn.clone();
    let mut invocation = REPORT.key(hash_key(topic));
    invocation.key(channel(topic));
    invocation.arg(node).arg(counts.0).arg(counts.1).arg(now_ms()).arg(ttl.as_millis() as u64);
    let total: String = timeout(OP_TIMEOUT, invocation.invoke_async(&mut conn)).await.ok()?.ok()?;
    parse_counts(total.as_bytes())
}

/// Reports changed counts every `period`, and every count every third of `ttl`; then tells the
/// sockets of each topic whose total changed.
pub(super) fn spawn(
    conn: ConnectionManager,
    registry: Arc<Registry>,
    period: Duration,
    ttl: Duration,
) -> JoinHandle<()> {
    let node = uuid::Uuid::new_v4().to_string();
    tokio::spawn(async move {
        let mut ticks = ReportTicks::new(period, ttl);
        loop {
            let refreshing = ticks.next().await;
            let mut topics = registry.presence.take_dirty();
            if refreshing {
                add_all(&mut topics, registry.counted_topics());
            }
            let mut pass = Pass::new();
            for topic in topics {
                let local = registry.local_counts(&topic);
                match pass.ask(report(&conn, &node, &topic, local, ttl)).await {
                    Some(total) => registry.set_presence_total(&topic, total),
                    // Redis is away: this node's own count, reported again when it is back.
                    None => {
                        registry.set_presence_total(&topic, local);
                        registry.presence.mark_dirty(&topic);
                    }
                }
            }
            registry.flush_presence();
        }
    })
}
