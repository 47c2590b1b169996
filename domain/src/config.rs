//! Typed configuration from the environment, with the defaults README.md lists.

use std::{path::PathBuf, time::Duration};

use anyhow::Context;

pub use crate::secret::Secret;

#[derive(Clone, Debug)]
pub struct Config {
    pub bind_addr: String,
    /// Base URL used in links sent by mail. `None` means "the address we bound to".
    pub public_url: Option<String>,
    pub data_dir: PathBuf,
    pub database_url: Secret,
    /// The most PostgreSQL connections this node's pool opens (tests lower it to fit many servers).
    pub database_max_connections: u32,
    /// The longest a request waits for a pooled connection before answering 503: a database that
    /// is away or a pool that is exhausted fails fast instead of holding the request.
    pub database_acquire_timeout: Duration,
    pub redis_url: Option<Secret>,
    pub jwt_secret: Option<Secret>,
    pub smtp_url: Option<Secret>,
    pub mail_from: String,
    /// Shown to users and the contact form's recipient (`SUPPORT_EMAIL`; default `support@` the
    /// host of `PUBLIC_URL`).
    pub support_email: String,
    /// Shown on the contact page when set (`BUSINESS_EMAIL`, `SUPPORT_PHONE`).
    pub business_email: Option<String>,
    pub support_phone: Option<String>,
    /// The footer's social links (`SOCIAL_LINKS="Facebook=https://…,Instagram=https://…"`); none by default.
    pub social_links: Vec<SocialLink>,
    pub stripe_secret_key: Option<Secret>,
    pub stripe_webhook_secret: Option<Secret>,
    /// Stripe's API origin; tests point it at a local fake.
    pub stripe_api_base: String,
    pub geocoder_url: Option<String>,
    pub media_url: Option<String>,
    pub web_dist: PathBuf,
    pub dev_mode: bool,
    /// Run with the sandbox providers (checkout, payouts, identity pages) outside dev mode, on
    /// purpose: a demo deployment (`ALLOW_SANDBOX_PROVIDERS`, default false; logged loudly at start).
    /// Without it or dev mode the sandbox pages are not mounted, and without payment credentials
    /// the server refuses to start.
    pub allow_sandbox_providers: bool,
    pub require_email_verification: bool,
    /// Requests per minute allowed on each sensitive auth route, per client address and per email.
    pub auth_rate_limit_per_minute: u32,
    /// Take the client address from `X-Forwarded-For` (only behind a trusted load balancer).
    pub trust_proxy: bool,
    /// Open `/ws` sockets per client address; the next is closed with 4029.
    pub ws_max_connections_per_client: usize,
    /// Subscribe messages per second one socket may send on average (bursts of 100).
    pub ws_subscribes_per_second: f64,
    /// Refetches per second a node spreads its clients' refetches over after a resync.
    pub ws_resync_refetches_per_second: f64,
    /// How often each node's payments sweep runs (`PAYMENTS_SWEEP_SECS`, default 60; 0 turns it off,
    /// for tests that drive the sweep themselves).
    pub payments_sweep_secs: u64,
    /// How often each node's alert-matching worker looks for tasks still to match besides being
    /// woken by a post on its node (`TASK_ALERTS_POLL_SECS`, default 5; 0 turns it off, for tests).
    pub task_alerts_poll_secs: u64,
    /// Operators (`ADMIN_EMAILS`, comma-separated, compared without case): they decide disputes.
    pub admin_emails: Vec<String>,
    /// Proxies in front of the nodes that each append to `X-Forwarded-For`: the client is the
    /// entry this many places from the right (entries further left can be forged by the client).
    pub trusted_proxy_count: usize,
    /// The VAPID key that signs Web Push requests (`VAPID_PRIVATE_KEY`, the raw P-256 scalar in
    /// URL-safe base64); unset = generated once and kept in `DATA_DIR`.
    pub vapid_private_key: Option<Secret>,
    /// Who push services may contact about our pushes (`VAPID_SUBJECT`, a mailto: address).
    pub vapid_subject: String,
    /// Social sign-in: `GOOGLE_…`, `FACEBOOK_…`, `APPLE_…` (see `signin::settings`).
    pub sign_in: crate::signin::settings::SignInSettings,
    /// How long a notification must stay unread before it is mailed (`EMAIL_DELAY` seconds, default 600).
    pub email_delay: Duration,
    /// How often each node's delivery worker looks for due pushes and mail (`DELIVERY_POLL_MS`).
    pub delivery_poll_interval: Duration,
    /// Push services a device's endpoint may name (`PUSH_ALLOWED_HOSTS`, comma-separated host
    /// names, `*.name` for any host under `name`; default the major browsers' services).
    pub push_allowed_hosts: Vec<String>,
    /// Tasks one account may post an hour (`TASK_POSTS_PER_HOUR`).
    pub task_posts_per_hour: u32,
    /// Tasks one client address may post an hour, all its accounts together
    /// (`TASK_POSTS_PER_CLIENT_PER_HOUR`; more, since many people share an address).
    pub task_posts_per_client_per_hour: u32,
    /// Questions one account may ask an hour, all tasks together (`QUESTIONS_PER_ACCOUNT_PER_HOUR`).
    pub questions_per_account_per_hour: u32,
    /// Questions one task may receive an hour, all askers together (`QUESTIONS_PER_TASK_PER_HOUR`):
    /// each one notifies the poster.
    pub questions_per_task_per_hour: u32,
    /// Messages one account may send a minute, all conversations together
    /// (`MESSAGES_PER_ACCOUNT_PER_MINUTE`).
    pub messages_per_account_per_minute: u32,
    /// Messages one task's conversation may carry a minute, both parties together
    /// (`MESSAGES_PER_TASK_PER_MINUTE`).
    pub messages_per_task_per_minute: u32,
    /// Task alert notifications one user gets an hour (`TASK_ALERTS_PER_USER_PER_HOUR`); matches past it are recorded, not notified.
    pub task_alerts_per_user_per_hour: u32,
    /// Regions whose phone numbers may be verified by SMS (`SMS_ALLOWED_COUNTRIES`, ISO 3166-1
    /// alpha-2 codes, comma-separated; default `AU`). The first is assumed for national numbers.
    pub sms_allowed_countries: Vec<String>,
    /// Verification texts sent to one country's numbers a day, all accounts together
    /// (`SMS_DAILY_LIMIT_PER_COUNTRY`): the ceiling on what SMS pumping could cost.
    pub sms_daily_limit_per_country: u32,
    /// Twilio's Messages API when all three are set; otherwise texts go to `DATA_DIR/sms/`.
    pub twilio_account_sid: Option<String>,
    pub twilio_auth_token: Option<Secret>,
    pub twilio_from: Option<String>,
    /// Twilio's API origin; tests point it at a local fake.
    pub twilio_api_base: String,
    /// A tasker's transfers wait in the outbox until their identity is verified
    /// (`PAYOUTS_REQUIRE_IDENTITY`, default true).
    pub payouts_require_identity: bool,
}

impl Config {
    /// Whether the sandbox providers' pages are served: in dev mode, or when a deployment says so.
    pub fn sandboxes_allowed(&self) -> bool {
        self.dev_mode || self.allow_sandbox_providers
    }

    /// Refuses a production configuration that would take payments through the sandbox by
    /// accident, naming the settings that decide it.
    pub fn check_providers(&self) -> anyhow::Result<()> {
        if !self.sandboxes_allowed() && self.stripe_secret_key.is_none() {
            anyhow::bail!(
                "no payment provider: set STRIPE_SECRET_KEY (and STRIPE_WEBHOOK_SECRET) for real payments, \
                 ALLOW_SANDBOX_PROVIDERS=true to run a demo on the sandbox providers on purpose, \
                 or DEV_MODE=true on a developer's machine"
            );
        }
        Ok(())
    }

    /// The embedded defaults: SQLite under `data_dir`, in-process bus, dev mailbox, generated JWT secret.
    pub fn local(data_dir: PathBuf) -> Self {
        Self {
            bind_addr: "127.0.0.1:8080".into(),
            public_url: None,
            database_url: Secret::new(format!("sqlite://{}/taskhub.db", data_dir.display())),
            database_max_connections: 20,
            database_acquire_timeout: Duration::from_secs(1),
            redis_url: None,
            jwt_secret: None,
            smtp_url: None,
            mail_from: "Taskhub <no-reply@taskhub.local>".into(),
            support_email: "support@taskhub.local".into(),
            business_email: None,
            support_phone: None,
            social_links: Vec::new(),
            stripe_secret_key: None,
            stripe_webhook_secret: None,
            stripe_api_base: crate::payments::stripe::DEFAULT_API_BASE.into(),
            geocoder_url: None,
            media_url: None,
            web_dist: PathBuf::from("web/dist"),
            dev_mode: false,
            allow_sandbox_providers: false,
            require_email_verification: true,
            auth_rate_limit_per_minute: 10,
            trust_proxy: false,
            ws_max_connections_per_client: 50,
            ws_subscribes_per_second: 10.0,
            ws_resync_refetches_per_second: realtime::HubConfig::default().resync_refetches_per_second,
            admin_emails: Vec::new(),
            payments_sweep_secs: 60,
            task_alerts_poll_secs: 5,
            trusted_proxy_count: 1,
            vapid_private_key: None,
            vapid_subject: "mailto:support@taskhub.local".into(),
            sign_in: Default::default(),
            email_delay: Duration::from_secs(600),
            delivery_poll_interval: Duration::from_millis(500),
            push_allowed_hosts: crate::delivery::endpoint::DEFAULT_ALLOWED_HOSTS
                .iter()
                .map(|h| h.to_string())
                .collect(),
            task_posts_per_hour: 20,
            task_posts_per_client_per_hour: 100,
            task_alerts_per_user_per_hour: 30,
            questions_per_account_per_hour: 30,
            questions_per_task_per_hour: 60,
            messages_per_account_per_minute: 30,
            messages_per_task_per_minute: 40,
            sms_allowed_countries: vec!["AU".into()],
            sms_daily_limit_per_country: 1000,
            twilio_account_sid: None,
            twilio_auth_token: None,
            twilio_from: None,
            twilio_api_base: crate::sms::twilio::DEFAULT_API_BASE.into(),
            payouts_require_identity: true,
            data_dir,
        }
    }

    /// [`Config::local`] overridden by every variable of README.md's table that is set.
    pub fn from_env() -> anyhow::Result<Self> {
        let mut config = Self::local(PathBuf::from(var("DATA_DIR").unwrap_or_else(|| "./data".into())));
        if let Some(value) = var("BIND_ADDR") {
            config.bind_addr = value;
        }
        config.public_url = var("PUBLIC_URL").map(|url| url.trim_end_matches('/').to_owned());
        if let Some(value) = var("DATABASE_URL") {
            config.database_url = Secret::new(value);
        }
        if let Some(value) = var("DATABASE_MAX_CONNECTIONS") {
            config.database_max_connections =
                value.parse().context("DATABASE_MAX_CONNECTIONS must be a positive number")?;
        }
        if let Some(value) = var("DATABASE_ACQUIRE_TIMEOUT_MS") {
            let millis: u64 = value.parse().context("DATABASE_ACQUIRE_TIMEOUT_MS must be a number of milliseconds")?;
            config.database_acquire_timeout = Duration::from_millis(millis.max(1));
        }
        config.redis_url = var("REDIS_URL").map(Secret::new);
        config.jwt_secret = var("JWT_SECRET").map(Secret::new);
        config.smtp_url = var("SMTP_URL").map(Secret::new);
        if let Some(value) = var("MAIL_FROM") {
            config.mail_from = value;
        }
        if let Some(value) = var("SUPPORT_EMAIL").or_else(|| support_email_for(config.public_url.as_deref())) {
            config.support_email = value;
        }
        config.business_email = var("BUSINESS_EMAIL");
        config.support_phone = var("SUPPORT_PHONE");
        if let Some(value) = var("SOCIAL_LINKS") {
            config.social_links = parse_social_links(&value)?;
        }
        config.vapid_subject = format!("mailto:{}", config.support_email);
        config.vapid_private_key = var("VAPID_PRIVATE_KEY").map(Secret::new);
        if let Some(value) = var("VAPID_SUBJECT") {
            anyhow::ensure!(
                value.starts_with("mailto:") || value.starts_with("https://"),
                "VAPID_SUBJECT must be a mailto: or https: URL"
            );
            config.vapid_subject = value;
        }
        if let Some(value) = var("EMAIL_DELAY") {
            config.email_delay = Duration::from_secs(value.parse().context("EMAIL_DELAY must be a number of seconds")?);
        }
        if let Some(value) = var("DELIVERY_POLL_MS") {
            config.delivery_poll_interval = Duration::from_millis(
                value.parse().ok().filter(|ms| *ms > 0).context("DELIVERY_POLL_MS must be a positive number")?,
            );
        }
        if let Some(value) = var("PUSH_ALLOWED_HOSTS") {
            config.push_allowed_hosts = parse_push_hosts(&value)?;
        }
        config.stripe_secret_key = var("STRIPE_SECRET_KEY").map(Secret::new);
        config.stripe_webhook_secret = var("STRIPE_WEBHOOK_SECRET").map(Secret::new);
        if let Some(value) = var("STRIPE_API_BASE") {
            config.stripe_api_base = value;
        }
        config.geocoder_url = var("GEOCODER_URL");
        config.media_url = var("MEDIA_URL");
        if let Some(value) = var("WEB_DIST") {
            config.web_dist = PathBuf::from(value);
        }
        config.dev_mode = flag("DEV_MODE", false)?;
        config.allow_sandbox_providers = flag("ALLOW_SANDBOX_PROVIDERS", false)?;
        config.sign_in = crate::signin::settings::SignInSettings::from_env()?;
        config.require_email_verification = flag("REQUIRE_EMAIL_VERIFICATION", true)?;
        config.trust_proxy = flag("TRUST_PROXY", false)?;
        if let Some(value) = var("PAYMENTS_SWEEP_SECS") {
            config.payments_sweep_secs = value.parse().context("PAYMENTS_SWEEP_SECS must be a number of seconds")?;
        }
        if let Some(value) = var("TASK_ALERTS_POLL_SECS") {
            config.task_alerts_poll_secs =
                value.parse().context("TASK_ALERTS_POLL_SECS must be a number of seconds")?;
        }
        config.admin_emails = var("ADMIN_EMAILS")
            .map(|list| list.split(',').map(|email| email.trim().to_lowercase()).filter(|e| !e.is_empty()).collect())
            .unwrap_or_default();
        if let Some(value) = var("TRUSTED_PROXY_COUNT") {
            config.trusted_proxy_count = value
                .parse()
                .ok()
                .filter(|count| *count >= 1)
                .context("TRUSTED_PROXY_COUNT must be a whole number of at least 1")?;
        }
        if let Some(value) = var("AUTH_RATE_LIMIT_PER_MINUTE") {
            config.auth_rate_limit_per_minute = value.parse().context("AUTH_RATE_LIMIT_PER_MINUTE must be a number")?;
        }
        if let Some(value) = var("WS_MAX_CONNECTIONS_PER_CLIENT") {
            config.ws_max_connections_per_client =
                value.parse().context("WS_MAX_CONNECTIONS_PER_CLIENT must be a number")?;
        }
        if let Some(value) = var("WS_SUBSCRIBES_PER_SECOND") {
            config.ws_subscribes_per_second = value.parse().context("WS_SUBSCRIBES_PER_SECOND must be a number")?;
        }
        if let Some(value) = var("WS_RESYNC_REFETCHES_PER_SECOND") {
            config.ws_resync_refetches_per_second = value
                .parse()
                .ok()
                .filter(|rate: &f64| *rate >= 1.0)
                .context("WS_RESYNC_REFETCHES_PER_SECOND must be a number of at least 1")?;
        }
        if let Some(value) = var("TASK_POSTS_PER_HOUR") {
            config.task_posts_per_hour = value.parse().context("TASK_POSTS_PER_HOUR must be a number")?;
        }
        if let Some(value) = var("TASK_POSTS_PER_CLIENT_PER_HOUR") {
            config.task_posts_per_client_per_hour =
                value.parse().context("TASK_POSTS_PER_CLIENT_PER_HOUR must be a number")?;
        }
        for (name, setting) in [
            ("QUESTIONS_PER_ACCOUNT_PER_HOUR", &mut config.questions_per_account_per_hour),
            ("QUESTIONS_PER_TASK_PER_HOUR", &mut config.questions_per_task_per_hour),
            ("MESSAGES_PER_ACCOUNT_PER_MINUTE", &mut config.messages_per_account_per_minute),
            ("MESSAGES_PER_TASK_PER_MINUTE", &mut config.messages_per_task_per_minute),
        ] {
            if let Some(value) = var(name) {
                *setting = value
                    .parse()
                    .ok()
                    .filter(|limit: &u32| *limit > 0)
                    .with_context(|| format!("{name} must be a number of at least 1"))?;
            }
        }
        if let Some(value) = var("TASK_ALERTS_PER_USER_PER_HOUR") {
            config.task_alerts_per_user_per_hour =
                value.parse().context("TASK_ALERTS_PER_USER_PER_HOUR must be a number")?;
        }
        if let Some(value) = var("SMS_ALLOWED_COUNTRIES") {
            config.sms_allowed_countries = crate::sms::parse_countries(&value)?;
        }
        if let Some(value) = var("SMS_DAILY_LIMIT_PER_COUNTRY") {
            config.sms_daily_limit_per_country =
                value.parse().context("SMS_DAILY_LIMIT_PER_COUNTRY must be a number")?;
        }
        config.twilio_account_sid = var("TWILIO_ACCOUNT_SID");
        config.twilio_auth_token = var("TWILIO_AUTH_TOKEN").map(Secret::new);
        config.twilio_from = var("TWILIO_FROM");
        if let Some(value) = var("TWILIO_API_BASE") {
            config.twilio_api_base = value;
        }
        config.payouts_require_identity = flag("PAYOUTS_REQUIRE_IDENTITY", true)?;
        Ok(config)
    }

    pub fn is_operator(&self, email: &str) -> bool {
        self.admin_emails.iter().any(|admin| admin.eq_ignore_ascii_case(email.trim()))
    }

    pub fn is_postgres(&self) -> bool {
        self.database_url.expose().starts_with("postgres")
    }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct SocialLink {
    pub name: String,
    pub url: String,
}

/// `support@` the public host (without `www.`), when `PUBLIC_URL` names a real domain.
pub fn support_email_for(public_url: Option<&str>) -> Option<String> {
    let url = url::Url::parse(public_url?).ok()?;
    let host = url.domain()?.trim_start_matches("www.");
    (host.contains('.') && !host.ends_with(".localhost")).then(|| format!("support@{host}"))
}

/// `Name=https://…` pairs separated by commas.
pub fn parse_social_links(text: &str) -> anyhow::Result<Vec<SocialLink>> {
    text.split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(|entry| {
            let (name, link) = entry.split_once('=').context("SOCIAL_LINKS entries look like Name=https://…")?;
            let parsed = url::Url::parse(link.trim()).ok().filter(|url| matches!(url.scheme(), "https" | "http"));
            let url = parsed.with_context(|| format!("SOCIAL_LINKS: {:?} is not an http(s) address", link.trim()))?;
            anyhow::ensure!(!name.trim().is_empty(), "SOCIAL_LINKS entries need a name before '='");
            Ok(SocialLink { name: name.trim().to_owned(), url: url.to_string() })
        })
        .collect()
}

/// `PUSH_ALLOWED_HOSTS`: host names (`*.name` for any host under `name`) separated by commas.
pub fn parse_push_hosts(text: &str) -> anyhow::Result<Vec<String>> {
    let hosts: Vec<String> =
        text.split(',').map(|host| host.trim().to_ascii_lowercase()).filter(|host| !host.is_empty()).collect();
    for host in &hosts {
        anyhow::ensure!(
            crate::delivery::endpoint::valid_host_pattern(host),
            "PUSH_ALLOWED_HOSTS: {host:?} is not a host name (e.g. fcm.googleapis.com or *.push.apple.com)"
        );
    }
    Ok(hosts)
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|value| !value.trim().is_empty())
}

fn flag(name: &str, default: bool) -> anyhow::Result<bool> {
    match var(name).as_deref().map(str::to_ascii_lowercase).as_deref() {
        None => Ok(default),
        Some("1" | "true" | "yes" | "on") => Ok(true),
        Some("0" | "false" | "no" | "off") => Ok(false),
        Some(other) => anyhow::bail!("{name} must be true or false, got {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn support_email_defaults_to_the_public_host() {
        assert_eq!(support_email_for(Some("https://www.taskhub.com.au")).as_deref(), Some("support@taskhub.com.au"));
        assert_eq!(support_email_for(Some("https://app.taskhub.io/")).as_deref(), Some("support@app.taskhub.io"));
        assert_eq!(support_email_for(Some("http://localhost:8080")), None);
        assert_eq!(support_email_for(Some("http://127.0.0.1:8080")), None);
        assert_eq!(support_email_for(None), None);
    }

    #[test]
    fn social_links_are_name_and_web_address_pairs() {
        let links =
            parse_social_links(" Facebook=https://facebook.com/taskhub , Instagram=https://instagram.com/taskhub,")
                .unwrap();
        assert_eq!(
            links,
            vec![
                SocialLink { name: "Facebook".into(), url: "https://facebook.com/taskhub".into() },
                SocialLink { name: "Instagram".into(), url: "https://instagram.com/taskhub".into() },
            ]
        );
        assert!(parse_social_links("Facebook").is_err());
        assert!(parse_social_links("Facebook=javascript:alert(1)").is_err());
        assert!(parse_social_links("=https://x.com/taskhub").is_err());
    }

    #[test]
    fn push_hosts_are_host_names_or_wildcards() {
        assert_eq!(
            parse_push_hosts(" FCM.googleapis.com, *.push.apple.com ,").unwrap(),
            vec!["fcm.googleapis.com".to_owned(), "*.push.apple.com".to_owned()]
        );
        assert!(parse_push_hosts("https://fcm.googleapis.com").is_err());
        assert!(parse_push_hosts("*").is_err());
    }
}
