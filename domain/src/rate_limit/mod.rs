//! Request limits: fixed-window counters kept in process, or in Redis when
//! `REDIS_URL` is set so every node of a cluster counts against one budget.
//! When Redis does not answer, a node falls back to its own counters (and
//! says so in the log) rather than letting everything through.

mod auth;
mod client;
mod local;
mod redis;

use std::{sync::Arc, time::Duration};

pub use self::{
    auth::AuthRateLimits,
    client::{client_key, client_prefix},
};
use self::{local::LocalWindows, redis::RedisWindows};
use model::refusal::RateLimited;

/// Checkout sessions one task may open: each is a call to the payment provider and a row.
pub const CHECKOUT_SESSIONS_PER_TASK: Limit = Limit::new(10, Duration::from_secs(600));
/// Invitations one poster may send: each is a notification to someone who did not ask for it.
pub const INVITATIONS_PER_POSTER: Limit = Limit::new(30, Duration::from_secs(3600));
/// How often one account's unfinished payout account is looked up with the
/// provider: between lookups it shows as still pending. The page asks when the
/// tasker comes back from onboarding; a script asking in a loop would otherwise
/// spend the platform's Stripe rate limit.
pub const PAYOUT_ACCOUNT_LOOKUPS: Limit = Limit::new(1, Duration::from_secs(30));
/// Onboarding links one account may ask for (each creates an Account Link at the provider).
pub const PAYOUT_ONBOARDINGS: Limit = Limit::new(10, Duration::from_secs(3600));
/// Verifications one account may ask for of one checkout (each may ask the provider about it).
pub const PAYMENT_VERIFICATIONS: Limit = Limit::new(20, Duration::from_secs(600));
/// Alert creations, changes and deletions one account may make: each may rewrite
/// hundreds of index rows under the database's write lock. Far more than anyone
/// tidying their alerts needs.
pub const ALERT_WRITES_PER_ACCOUNT: Limit = Limit::new(60, Duration::from_secs(3600));

/// Reports one user may file: each lands in front of an operator.
pub const REPORTS_PER_USER: Limit = Limit::new(20, Duration::from_secs(3600));

/// At most `max` hits per `window` for one key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub max: u32,
    pub window: Duration,
}

impl Limit {
    pub const fn per_minute(max: u32) -> Self {
        Self { max, window: Duration::from_secs(60) }
    }

    pub const fn new(max: u32, window: Duration) -> Self {
        Self { max, window }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Allowed,
    /// Over the limit; the window resets after this long.
    Exceeded {
        retry_after: Duration,
    },
}

impl Verdict {
    /// The API's 429 (with `Retry-After`) when over the limit.
    pub fn or_refuse(self) -> Result<(), RateLimited> {
        match self {
            Self::Allowed => Ok(()),
            Self::Exceeded { retry_after } => {
                Err(RateLimited { retry_after_secs: retry_after.as_secs_f64().ceil() as u64 })
            }
        }
    }
}

/// Counts hits per key; shared by every limited route.
#[derive(Clone)]
pub struct Limiter {
    local: Arc<LocalWindows>,
    redis: Option<RedisWindows>,
}

impl Limiter {
    pub fn local() -> Self {
        Self { local: Arc::new(LocalWindows::default()), redis: None }
    }

    /// Counters in Redis at `url`, with local counters as the fallback while it is unreachable.
    pub fn shared(url: &str) -> anyhow::Result<Self> {
        Ok(Self { local: Arc::new(LocalWindows::default()), redis: Some(RedisWindows::new(url)?) })
    }

    /// Counts one hit on `key` and says whether it is within `limit`.
    pub async fn hit(&self, key: &str, limit: Limit) -> Verdict {
        if let Some(redis) = &self.redis
            && let Some(verdict) = redis.hit(key, limit).await
        {
            return verdict;
        }
        self.local.hit(key, limit)
    }

    /// Counts one hit and refuses with 429 when over the limit.
    pub async fn check(&self, key: &str, limit: Limit) -> Result<(), RateLimited> {
        self.hit(key, limit).await.or_refuse()
    }

    /// Forgets the local windows that have ended (the workers call it every minute).
    pub fn forget_ended_windows(&self) {
        self.local.forget_ended();
    }
}
