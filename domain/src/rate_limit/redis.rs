//! Fixed-window counters in Redis, shared by every node: one Lua script
//! increments a key, gives it the window's expiry on the first hit, and
//! answers the count and the time left.

use std::{
    sync::{Arc, LazyLock, Mutex},
    time::{Duration, Instant},
};

use anyhow::Context;
use redis::{
    Script,
    aio::{ConnectionManager, ConnectionManagerConfig},
};
use sha2::{Digest, Sha256};

use crate::rate_limit::{Limit, Verdict};

/// Longest a limit check waits on Redis before counting locally instead.
const OP_TIMEOUT: Duration = Duration::from_millis(250);
/// After a failure, how long checks stay local before Redis is tried again.
const RETRY_AFTER_FAILURE: Duration = Duration::from_secs(1);
const KEY_PREFIX: &str = "taskhub:rl:";

/// KEYS: counter. ARGV: window in ms. Returns {hits, ms left}.
static HIT: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"local hits = redis.call('INCR', KEYS[1])
          local left = redis.call('PTTL', KEYS[1])
          if hits == 1 or left < 0 then
            redis.call('PEXPIRE', KEYS[1], ARGV[1])
            left = tonumber(ARGV[1])
          end
          return {hits, left}",
    )
});

#[derive(Clone)]
pub struct RedisWindows {
    conn: ConnectionManager,
    /// Set while Redis is failing: checks are local until then.
    down_until: Arc<Mutex<Option<Instant>>>,
}

impl RedisWindows {
    pub fn new(url: &str) -> anyhow::Result<Self> {
        let client = redis::Client::open(url).context("invalid Redis URL")?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(OP_TIMEOUT))
            .set_response_timeout(Some(OP_TIMEOUT))
            .set_number_of_retries(0)
            .set_max_delay(Duration::from_secs(1));
        let conn = ConnectionManager::new_lazy_with_config(client, config)
            .context("cannot set up the Redis connection for rate limits")?;
        Ok(Self { conn, down_until: Arc::default() })
    }

    /// The verdict from the shared counter, or `None` when Redis did not answer
    /// (logged once per outage; the caller counts locally).
    pub async fn hit(&self, key: &str, limit: Limit) -> Option<Verdict> {
        let now = Instant::now();
        let was_down = {
            let down_until = self.down_until.lock().expect("not poisoned");
            match *down_until {
                Some(until) if until > now => return None,
                other => other.is_some(),
            }
        };
        let window_ms = limit.window.as_millis().max(1) as u64;
        let mut conn = self.conn.clone();
        let mut invocation = HIT.key(redis_key(key));
        invocation.arg(window_ms);
        let answer = tokio::time::timeout(OP_TIMEOUT, invocation.invoke_async::<(u64, i64)>(&mut conn)).await;
        match answer {
            Ok(Ok((hits, left_ms))) => {
                if was_down {
                    *self.down_until.lock().expect("not poisoned") = None;
                    tracing::info!("Redis answers again: rate limits are shared across nodes once more");
                }
                Some(if hits <= u64::from(limit.max) {
                    Verdict::Allowed
                } else {
                    Verdict::Exceeded { retry_after: Duration::from_millis(left_ms.max(1000) as u64) }
                })
            }
            failure => {
                if !was_down {
                    let error = match failure {
                        Ok(Err(error)) => error.to_string(),
                        _ => "timed out".to_owned(),
                    };
                    tracing::warn!(%error, "Redis unreachable: rate limits are counted per node until it answers");
                }
                *self.down_until.lock().expect("not poisoned") = Some(now + RETRY_AFTER_FAILURE);
                None
            }
        }
    }
}

/// Keys may hold an email address: only its hash goes to Redis.
fn redis_key(key: &str) -> String {
    format!("{KEY_PREFIX}{}", hex::encode(&Sha256::digest(key.as_bytes())[..16]))
}
