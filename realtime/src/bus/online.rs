//! Who is online across nodes. Each node reports how many sockets of a user it holds into one
//! Redis hash per user (field: the node, value: `count:expires_ms`); a script drops the expired
//! fields, sums the rest and, when the user went online or offline, publishes it on the user's
//! `online:{id}` channel (`online:1`, or `online:0:last_seen_ms`). It keeps `seen`: when a node
//! last reported the user's last socket there gone (or, for a node that died, its last report).
//! A node reports a user when their count here went from or to zero; it refreshes its fields of
//! every user it holds every third of `presence_ttl` (one pipeline, no script), and checks every
//! user its sockets watch as often, so a dead node's users go offline within about 4/3 of it.

use std::{
    sync::{Arc, LazyLock},
    time::Duration,
};

use redis::{Script, aio::ConnectionManager};
use tokio::{task::JoinHandle, time::timeout};

use super::{
    control::now_ms,
    keys::{CHANNEL_PREFIX, OP_TIMEOUT, channel},
    report_loop::{Pass, ReportTicks, add_all},
};
use crate::{
    online::{self, OnlineState, OnlineUsers},
    stats::Stats,
};

pub(super) const ONLINE_PREFIX: &[u8] = b"online:";
/// On a user's `online:{id}` channel (their watchers) and `user:{id}` channel (their own
/// sockets): they turned sharing off ([`crate::online::OnlineUsers::hide`]).
pub(super) const HIDE_ONLINE: &[u8] = b"online:hidden";
/// Field refreshes per pipeline.
const REFRESH_BATCH: usize = 500;

/// KEYS: hash, channel. ARGV: node, count here, now ms, ttl ms. Returns `1` or `0:last_seen_ms`
/// (empty when never seen).
static REPORT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
        local now = tonumber(ARGV[3])
        local ttl = tonumber(ARGV[4])
        local seen = tonumber(redis.call('HGET', KEYS[1], 'seen') or '0')
        if tonumber(ARGV[2]) == 0 then
            if redis.call('HDEL', KEYS[1], ARGV[1]) == 1 then
                seen = math.max(seen, now)
            end
        else
            redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. (now + ttl))
        end
        local total = 0
        local fields = redis.call('HGETALL', KEYS[1])
        for i = 1, #fields, 2 do
            if fields[i] ~= 'seen' and fields[i] ~= 'sent' then
                local count, expires = string.match(fields[i + 1], '^(%d+):(%d+)$')
                if expires == nil or tonumber(expires) < now then
                    redis.call('HDEL', KEYS[1], fields[i])
                    if expires ~= nil then
                        seen = math.max(seen, tonumber(expires) - ttl)
                    end
                else
                    total = total + tonumber(count)
                end
            end
        end
        local state = '1'
        if total == 0 then
            state = '0:'
            if seen > 0 then
                state = '0:' .. string.format('%.0f', seen)
            end
        end
        if seen > 0 then
            redis.call('HSET', KEYS[1], 'seen', string.format('%.0f', seen))
        end
        local flag = string.sub(state, 1, 1)
        if redis.call('HGET', KEYS[1], 'sent') ~= flag then
            redis.call('HSET', KEYS[1], 'sent', flag)
            redis.call('PUBLISH', KEYS[2], 'online:' .. state)
        end
        redis.call('PEXPIRE', KEYS[1], 2 * ttl)
        return state
        ",
    )
});

fn hash_key(user: &str) -> String {
    format!("{CHANNEL_PREFIX}{{{}}}:sockets", online::topic(user))
}

/// `1`, or `0:` with the last-seen time when known.
pub(super) fn parse_state(text: &[u8]) -> Option<OnlineState> {
    match std::str::from_utf8(text).ok()? {
        "1" => Some(OnlineState::ONLINE),
        offline => {
            let seen = offline.strip_prefix("0:")?;
            match seen {
                "" => Some(OnlineState::offline(None)),
                ms => ms.parse().ok().map(|ms| OnlineState::offline(Some(ms))),
            }
        }
    }
}

/// Reports this node's count of the user's sockets and answers their state over every node.
pub(super) async fn report(
    conn: &ConnectionManager,
    node: &str,
    user: &str,
    count: u32,
    ttl: Duration,
) -> Option<OnlineState> {
    let mut conn = conn.clone();
    let mut invocation = REPORT.key(hash_key(user));
    invocation.key(channel(&online::topic(user)));
    invocation.arg(node).arg(count).arg(now_ms()).arg(ttl.as_millis() as u64);
    let state: String = timeout(OP_TIMEOUT, invocation.invoke_async(&mut conn)).await.ok()?.ok()?;
    parse_state(state.as_bytes())
}

/// Extends this node's fields of the users it holds; false when Redis did not take it.
async fn refresh(conn: &ConnectionManager, node: &str, users: &[String], online: &OnlineUsers, ttl: Duration) -> bool {
    let expires = now_ms() + ttl.as_millis() as u64;
    for batch in users.chunks(REFRESH_BATCH) {
        let mut pipe = redis::pipe();
        let mut held = 0;
        for user in batch {
            let count = online.local_count(user);
            if count == 0 {
                continue;
            }
            let key = hash_key(user);
            pipe.hset(&key, node, format!("{count}:{expires}")).ignore();
            pipe.pexpire(&key, 2 * ttl.as_millis() as i64).ignore();
            held += 1;
        }
        if held == 0 {
            continue;
        }
        let mut conn = conn.clone();
        if !matches!(timeout(OP_TIMEOUT, pipe.query_async::<()>(&mut conn)).await, Ok(Ok(()))) {
            return false;
        }
    }
    true
}

/// Every `period`: reports the users whose count here went from or to zero; every third of `ttl`
/// refreshes every user held here and checks every user watched here. Then tells the watchers of
/// each user whose state changed.
pub(super) fn spawn(
    conn: ConnectionManager,
    node: Arc<str>,
    online: Arc<OnlineUsers>,
    stats: Arc<Stats>,
    period: Duration,
    ttl: Duration,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = ReportTicks::new(period, ttl);
        loop {
            let refreshing = ticks.next().await;
            let mut users = online.take_dirty();
            if refreshing {
                if !refresh(&conn, &node, &online.local_users(), &online, ttl).await {
                    // Redis is away: the fields expire; every user held here is reported again.
                    for user in online.local_users() {
                        online.mark_dirty(&user);
                    }
                }
                add_all(&mut users, online.watched_users());
            }
            let mut pass = Pass::new();
            for user in users {
                let count = online.local_count(&user);
                match pass.ask(report(&conn, &node, &user, count, ttl)).await {
                    Some(state) => online.set_state(&user, state),
                    // Redis is away: this node's own view, reported again when it is back.
                    None => {
                        if count > 0 {
                            online.set_state(&user, OnlineState::ONLINE);
                        }
                        online.mark_dirty(&user);
                    }
                }
            }
            online.flush(&stats);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_read_back() {
        assert_eq!(parse_state(b"1"), Some(OnlineState::ONLINE));
        assert_eq!(parse_state(b"0:"), Some(OnlineState::offline(None)));
        assert_eq!(parse_state(b"0:1700000000000"), Some(OnlineState::offline(Some(1_700_000_000_000))));
        assert_eq!(parse_state(b"2"), None);
        assert_eq!(parse_state(b"0:soon"), None);
    }
}
