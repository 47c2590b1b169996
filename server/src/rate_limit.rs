//! Per-client and per-account limits on the sensitive auth routes (login,
//! signup, password recovery), so passwords cannot be guessed at speed and
//! mailboxes cannot be flooded.

use std::{net::IpAddr, num::NonZeroU32, sync::Arc, time::Duration};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter, clock::Clock};
use uuid::Uuid;

use crate::error::ApiError;

#[derive(Clone)]
pub struct AuthRateLimits {
    limiter: Arc<DefaultKeyedRateLimiter<String>>,
}

impl AuthRateLimits {
    pub fn per_minute(requests: u32) -> Self {
        let quota = Quota::per_minute(NonZeroU32::new(requests.max(1)).expect("at least one"));
        Self { limiter: Arc::new(RateLimiter::keyed(quota)) }
    }

    /// Counts one attempt at `action` from `client` (and for `email` when
    /// given); refuses with 429 and a Retry-After once either is over quota.
    pub fn check(&self, action: &str, client: IpAddr, email: Option<&str>) -> Result<(), ApiError> {
        self.check_key(format!("{action}:ip:{client}"))?;
        if let Some(email) = email {
            self.check_key(format!("{action}:email:{}", email.trim().to_lowercase()))?;
        }
        Ok(())
    }

    /// Counts one `action` by a signed-in account, wherever it connects from.
    pub fn check_account(&self, action: &str, account: Uuid) -> Result<(), ApiError> {
        self.check_key(format!("{action}:account:{account}"))
    }

    fn check_key(&self, key: String) -> Result<(), ApiError> {
        self.limiter.check_key(&key).map_err(|not_until| {
            let wait = not_until.wait_time_from(governor::clock::DefaultClock::default().now());
            ApiError::RateLimited { retry_after_secs: wait.as_secs_f64().ceil() as u64 }
        })
    }

    /// Forgets clients that have been quiet long enough to be back at full quota.
    pub fn spawn_cleanup(&self) {
        let limiter = Arc::downgrade(&self.limiter);
        tokio::spawn(async move {
            let mut interval = tokio::time::interval(Duration::from_secs(60));
            loop {
                interval.tick().await;
                let Some(limiter) = limiter.upgrade() else { break };
                limiter.retain_recent();
                limiter.shrink_to_fit();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eleventh_attempt_in_a_minute_is_refused_with_a_retry_delay() {
        let limits = AuthRateLimits::per_minute(10);
        let ip: IpAddr = "127.0.0.9".parse().unwrap();
        for _ in 0..10 {
            limits.check("login", ip, Some("a@b.co")).unwrap();
        }
        match limits.check("login", ip, Some("a@b.co")) {
            Err(ApiError::RateLimited { retry_after_secs }) => assert!((1..=60).contains(&retry_after_secs)),
            other => panic!("expected rate limit, got {other:?}"),
        }
        // Other actions and clients keep their own budgets.
        limits.check("signup", ip, None).unwrap();
        limits.check("login", "127.0.0.10".parse().unwrap(), Some("c@d.co")).unwrap();
    }

    #[test]
    fn one_email_is_limited_across_clients() {
        let limits = AuthRateLimits::per_minute(3);
        for last_octet in 1..=3 {
            limits.check("recover", format!("10.0.0.{last_octet}").parse().unwrap(), Some("x@y.co")).unwrap();
        }
        assert!(limits.check("recover", "10.0.0.4".parse().unwrap(), Some("X@y.co")).is_err());
    }
}
