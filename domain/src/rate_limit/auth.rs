//! Limits on the sensitive auth routes (login, sign-up, password recovery,
//! contact), so passwords cannot be guessed at speed and mailboxes cannot be
//! flooded — without letting a stranger lock a real owner out of their account.

use std::{net::IpAddr, time::Duration};

use model::refusal::RateLimited;

use crate::{
    accounts::validation,
    rate_limit::{Limit, Limiter, Verdict, client_key},
};

/// How many addresses' worth of attempts one email takes before logins for it are slowed.
const EMAIL_CEILING_FACTOR: u32 = 10;
/// How many people may share one address (a household, an office NAT) on login.
const ADDRESS_FACTOR: u32 = 3;
/// The delay added to each login for an email over its ceiling.
pub const LOGIN_SLOW_DOWN: Duration = Duration::from_secs(2);

#[derive(Clone)]
pub struct AuthRateLimits {
    limiter: Limiter,
    per_minute: u32,
}

impl AuthRateLimits {
    pub fn new(limiter: Limiter, per_minute: u32) -> Self {
        Self { limiter, per_minute: per_minute.max(1) }
    }

    /// Counts one attempt at `action` from `client` and, when `email` is a
    /// valid address, for that address; 429 with Retry-After once either is over.
    pub async fn check(&self, action: &str, client: IpAddr, email: Option<&str>) -> Result<(), RateLimited> {
        let limit = Limit::per_minute(self.per_minute);
        self.limiter.check(&format!("{action}:ip:{}", client_key(client)), limit).await?;
        if let Some(email) = email.and_then(email_key) {
            self.limiter.check(&format!("{action}:email:{email}"), limit).await?;
        }
        Ok(())
    }

    /// Counts one `action` by a signed-in account, wherever it connects from.
    pub async fn check_account(&self, action: &str, account: uuid::Uuid) -> Result<(), RateLimited> {
        self.limiter.check(&format!("{action}:account:{account}"), Limit::per_minute(self.per_minute)).await
    }

    /// Counts one login attempt. Refuses (429) a client over its own budget,
    /// or over its budget for this email; an email attacked from many
    /// addresses is only slowed (the returned delay), so its owner can still
    /// sign in from their own address.
    pub async fn check_login(&self, client: IpAddr, email: &str) -> Result<Option<Duration>, RateLimited> {
        let client = client_key(client);
        let limit = Limit::per_minute(self.per_minute);
        let address_limit = Limit::per_minute(self.per_minute.saturating_mul(ADDRESS_FACTOR));
        self.limiter.check(&format!("login:ip:{client}"), address_limit).await?;
        let Some(email) = email_key(email) else { return Ok(None) };
        self.limiter.check(&format!("login:pair:{client}:{email}"), limit).await?;
        let ceiling = Limit::per_minute(self.per_minute.saturating_mul(EMAIL_CEILING_FACTOR));
        Ok(match self.limiter.hit(&format!("login:email:{email}"), ceiling).await {
            Verdict::Allowed => None,
            Verdict::Exceeded { .. } => Some(LOGIN_SLOW_DOWN),
        })
    }
}

/// A limiter key for an email: only a valid address (trimmed, lower-cased,
/// at most 254 bytes), so keys stay bounded and one address has one key.
fn email_key(raw: &str) -> Option<String> {
    validation::normalize_email(raw).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[tokio::test]
    async fn the_eleventh_attempt_in_a_minute_is_refused_with_a_retry_delay() {
        let limits = AuthRateLimits::new(Limiter::local(), 10);
        for _ in 0..10 {
            limits.check("signup", ip("127.0.0.9"), Some("a@b.co")).await.unwrap();
        }
        match limits.check("signup", ip("127.0.0.9"), Some("a@b.co")).await {
            Err(RateLimited { retry_after_secs }) => assert!((1..=60).contains(&retry_after_secs)),
            other => panic!("expected rate limit, got {other:?}"),
        }
        // Other actions and clients keep their own budgets.
        limits.check("recover", ip("127.0.0.9"), None).await.unwrap();
        limits.check("signup", ip("127.0.0.10"), Some("c@d.co")).await.unwrap();
    }

    #[tokio::test]
    async fn one_email_is_limited_across_clients_whatever_its_spelling() {
        let limits = AuthRateLimits::new(Limiter::local(), 3);
        for (n, spelling) in ["x@y.co", " X@Y.co", "x@y.CO "].into_iter().enumerate() {
            limits.check("recover", ip(&format!("10.0.0.{n}")), Some(spelling)).await.unwrap();
        }
        assert!(limits.check("recover", ip("10.0.0.9"), Some("X@y.co")).await.is_err());
    }

    #[tokio::test]
    async fn invalid_or_oversized_emails_are_never_used_as_keys() {
        let limits = AuthRateLimits::new(Limiter::local(), 1);
        let long = format!("{}@example.com", "a".repeat(300));
        limits.check("recover", ip("10.0.0.1"), Some(&long)).await.unwrap();
        // Only the address was counted: another address with the same junk passes.
        limits.check("recover", ip("10.0.0.2"), Some(&long)).await.unwrap();
        assert!(email_key(&long).is_none());
        assert!(email_key("not an email").is_none());
        assert_eq!(email_key(" Sam@Example.com ").as_deref(), Some("sam@example.com"));
    }

    #[tokio::test]
    async fn an_attacked_email_is_slowed_not_locked_for_its_owner() {
        let limits = AuthRateLimits::new(Limiter::local(), 2);
        // Twenty addresses try the victim's email twice each: each is stopped at its own budget.
        for n in 0..20 {
            let attacker = ip(&format!("198.51.100.{n}"));
            for _ in 0..2 {
                limits.check_login(attacker, "victim@example.com").await.unwrap();
            }
            assert!(limits.check_login(attacker, "victim@example.com").await.is_err());
        }
        // The owner, from their own address, is let through — only slowed.
        let slowed = limits.check_login(ip("203.0.113.7"), "Victim@example.com").await.unwrap();
        assert_eq!(slowed, Some(LOGIN_SLOW_DOWN));
    }

    #[tokio::test]
    async fn ipv6_neighbours_in_one_64_share_a_budget() {
        let limits = AuthRateLimits::new(Limiter::local(), 1);
        limits.check("signup", ip("2001:db8:1:2::1"), None).await.unwrap();
        assert!(limits.check("signup", ip("2001:db8:1:2::beef"), None).await.is_err());
        limits.check("signup", ip("2001:db8:1:3::1"), None).await.unwrap();
    }
}
