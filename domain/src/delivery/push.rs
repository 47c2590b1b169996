//! Sending one Web Push: the payload encrypted for the device (aes128gcm,
//! RFC 8291, by `web-push-native`), a VAPID token for the push service's
//! origin (RFC 8292), and the RFC 8030 headers: `TTL`, `Urgency`, `Topic`.

use std::time::Duration;

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use reqwest::{StatusCode, header};
use serde::Serialize;
use sha2::{Digest, Sha256};
use uuid::Uuid;
use web_push_native::{Auth, p256::PublicKey};

use model::states::NotificationKind;
use store::db::Timestamp;

use crate::delivery::{endpoint, vapid::VapidKey};

/// Push services answer in well under a second; one that does not is no
/// reason to hold a worker slot long (the host's breaker counts these).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// Push services accept at least 4 KiB of payload; long messages are cut well below it.
const MAX_MESSAGE_CHARS: usize = 1000;

/// What the service worker receives (docs/architecture.md, "Push payload"): the notification as the in-app list shows it.
#[derive(Clone, Debug, Serialize)]
pub struct PushPayload<'a> {
    pub id: Uuid,
    /// A notification kind, or `test` for a test push.
    #[serde(rename = "type")]
    pub kind: &'a str,
    pub title: &'a str,
    pub message: &'a str,
    pub link: Option<&'a str>,
    pub created_at: Timestamp,
}

/// The device's keys as the browser gave them (URL-safe base64).
pub struct DeviceKeys<'a> {
    pub p256dh: &'a str,
    pub auth: &'a str,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Sent {
    Delivered,
    /// 404/410: the subscription is gone for good.
    Gone,
    /// 429, 5xx or a network error: try again (no sooner than the push service asked).
    Retry {
        after: Option<Duration>,
        error: String,
    },
    /// Timed out, or no connection: try again, and count it against the host.
    Unreachable {
        error: String,
    },
    /// Refused for a reason retrying will not fix (bad endpoint, 4xx).
    Refused {
        error: String,
    },
}

pub struct PushSender {
    vapid: VapidKey,
    subject: String,
    client: reqwest::Client,
    endpoints: endpoint::EndpointPolicy,
}

impl PushSender {
    pub fn new(vapid: VapidKey, subject: String, endpoints: endpoint::EndpointPolicy) -> anyhow::Result<Self> {
        let client = reqwest::Client::builder()
            .dns_resolver(endpoint::resolver(endpoints.dev_mode))
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(REQUEST_TIMEOUT)
            .pool_max_idle_per_host(64)
            .build()?;
        Ok(Self { vapid, subject, client, endpoints })
    }

    pub fn public_key(&self) -> &str {
        self.vapid.public_key()
    }

    /// Where this sender may push; a subscription must pass it to be saved.
    pub fn endpoints(&self) -> &endpoint::EndpointPolicy {
        &self.endpoints
    }

    pub async fn send(&self, endpoint_url: &str, keys: &DeviceKeys<'_>, payload: &PushPayload<'_>) -> Sent {
        let url = match endpoint::check(endpoint_url, &self.endpoints) {
            Ok(url) => url,
            Err(error) => return Sent::Refused { error: error.into() },
        };
        let (Some(ua_public), Some(ua_auth)) = (parse_public_key(keys.p256dh), parse_auth(keys.auth)) else {
            return Sent::Refused { error: "the subscription's keys are invalid".into() };
        };
        let mut message = payload.clone();
        let truncated: String;
        if message.message.chars().count() > MAX_MESSAGE_CHARS {
            truncated = message.message.chars().take(MAX_MESSAGE_CHARS - 1).chain(['…']).collect();
            message.message = &truncated;
        }
        let body = match serde_json::to_vec(&message)
            .map_err(|error| error.to_string())
            .and_then(|json| web_push_native::encrypt(json, &ua_public, &ua_auth).map_err(|error| error.to_string()))
        {
            Ok(body) => body,
            Err(error) => return Sent::Refused { error },
        };
        let audience = url.origin().ascii_serialization();
        let authorization = match self.vapid.authorization(&audience, &self.subject, Timestamp::now()) {
            Ok(value) => value,
            Err(error) => return Sent::Retry { after: None, error: format!("signing the VAPID token: {error}") },
        };
        let mut request = self
            .client
            .post(url)
            .header(header::AUTHORIZATION, authorization)
            .header(header::CONTENT_ENCODING, "aes128gcm")
            .header(header::CONTENT_TYPE, "application/octet-stream")
            .header("TTL", ttl(payload.kind).as_secs().to_string())
            .header("Urgency", urgency(payload.kind));
        if let Some(topic) = topic(payload.kind, payload.link) {
            request = request.header("Topic", topic);
        }
        match request.body(body).send().await {
            Ok(response) => classify(response.status(), retry_after(response.headers())),
            // Without the URL: the endpoint is a capability, never written to logs or `last_error`.
            Err(error) if error.is_timeout() || error.is_connect() => {
                Sent::Unreachable { error: format!("push service unreachable: {}", error.without_url()) }
            }
            Err(error) => {
                Sent::Retry { after: None, error: format!("push service unreachable: {}", error.without_url()) }
            }
        }
    }
}

fn classify(status: StatusCode, retry_after: Option<Duration>) -> Sent {
    match status.as_u16() {
        200..=299 => Sent::Delivered,
        404 | 410 => Sent::Gone,
        429 | 500..=599 => Sent::Retry { after: retry_after, error: format!("push service answered {status}") },
        _ => Sent::Refused { error: format!("push service answered {status}") },
    }
}

/// `Retry-After` in seconds (the HTTP-date form is rare from push services and read as absent).
fn retry_after(headers: &header::HeaderMap) -> Option<Duration> {
    headers.get(header::RETRY_AFTER)?.to_str().ok()?.trim().parse().ok().map(Duration::from_secs)
}

/// The device's `p256dh` key: an uncompressed P-256 point.
pub fn parse_public_key(text: &str) -> Option<PublicKey> {
    let bytes = URL_SAFE_NO_PAD.decode(text.trim().trim_end_matches('=')).ok()?;
    (bytes.len() == 65).then(|| PublicKey::from_sec1_bytes(&bytes).ok()).flatten()
}

/// The device's 16-byte `auth` secret.
pub fn parse_auth(text: &str) -> Option<Auth> {
    let bytes = URL_SAFE_NO_PAD.decode(text.trim().trim_end_matches('=')).ok()?;
    let secret: [u8; 16] = bytes.try_into().ok()?;
    Some(Auth::from(secret))
}

/// How long the push service keeps a push for an offline device: alerts are
/// only worth anything while the task is fresh; the rest may wait a day.
fn ttl(push_kind: &str) -> Duration {
    match NotificationKind::parse(push_kind) {
        Some(NotificationKind::TaskAlert) => Duration::from_secs(4 * 3600),
        _ => Duration::from_secs(24 * 3600),
    }
}

/// Someone is waiting on offers, payments, messages and disputes: these are
/// sent with high urgency, and claimed before the rest.
pub const HIGH_URGENCY_KINDS: [NotificationKind; 4] =
    [NotificationKind::Offer, NotificationKind::Payment, NotificationKind::Message, NotificationKind::Dispute];

/// The rest may wait for the device to wake.
fn urgency(push_kind: &str) -> &'static str {
    let urgent = NotificationKind::parse(push_kind).is_some_and(|kind| HIGH_URGENCY_KINDS.contains(&kind));
    if urgent { "high" } else { "normal" }
}

/// Pushes about the same thing (kind and link) replace each other while the
/// device is offline, so it wakes to the latest, not a pile. A topic is at
/// most 32 URL-safe base64 characters.
fn topic(push_kind: &str, link: Option<&str>) -> Option<String> {
    let link = link?;
    let digest = Sha256::digest(format!("{push_kind}\n{link}").as_bytes());
    Some(URL_SAFE_NO_PAD.encode(digest)[..32].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_to_what_happens_next() {
        assert_eq!(classify(StatusCode::CREATED, None), Sent::Delivered);
        assert_eq!(classify(StatusCode::GONE, None), Sent::Gone);
        assert_eq!(classify(StatusCode::NOT_FOUND, None), Sent::Gone);
        assert!(matches!(
            classify(StatusCode::TOO_MANY_REQUESTS, Some(Duration::from_secs(7))),
            Sent::Retry { after: Some(after), .. } if after == Duration::from_secs(7)
        ));
        assert!(matches!(classify(StatusCode::SERVICE_UNAVAILABLE, None), Sent::Retry { after: None, .. }));
        assert!(matches!(classify(StatusCode::BAD_REQUEST, None), Sent::Refused { .. }));
    }

    #[test]
    fn topics_are_short_url_safe_and_stable() {
        let topic = topic("offer", Some("/tasks/1")).unwrap();
        assert_eq!(topic.len(), 32);
        assert!(topic.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(Some(topic), super::topic("offer", Some("/tasks/1")));
        assert_eq!(super::topic("offer", None), None);
    }
}
