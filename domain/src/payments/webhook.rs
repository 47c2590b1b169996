//! Stripe webhook deliveries: the `Stripe-Signature` check and the events we act on.
//!
//! The header is `t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=…][,v0=…]`; the
//! signed payload is `"{t}.{raw body}"` keyed with the endpoint's secret. A
//! delivery is accepted when one `v1` matches (compared in constant time) and
//! `t` is within the tolerance of now, which stops replays of old deliveries.

use hmac::{Hmac, Mac};
use serde::Deserialize;
use serde_json::Value;
use sha2::Sha256;

pub const TOLERANCE_SECS: i64 = 300;

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("missing or malformed Stripe-Signature header")]
    Malformed,
    #[error("timestamp outside the tolerance")]
    Stale,
    #[error("no matching signature")]
    Mismatch,
}

/// Checks `header` against `payload` (the raw request body) at `now` (unix seconds).
pub fn verify_signature(
    payload: &[u8],
    header: &str,
    secret: &str,
    now: i64,
    tolerance: i64,
) -> Result<(), SignatureError> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.parse::<i64>().ok(),
            Some(("v1", value)) => signatures.extend(hex::decode(value).ok()),
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(SignatureError::Malformed)?;
    if signatures.is_empty() {
        return Err(SignatureError::Malformed);
    }
    if (now - timestamp).abs() > tolerance {
        return Err(SignatureError::Stale);
    }
    // `verify_slice` compares in constant time.
    let matches = signatures
        .iter()
        .any(|signature| signed_payload_mac(secret, timestamp, payload).verify_slice(signature).is_ok());
    if matches { Ok(()) } else { Err(SignatureError::Mismatch) }
}

fn signed_payload_mac(secret: &str, timestamp: i64, payload: &[u8]) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes keys of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(payload);
    mac
}

/// The header Stripe would send for `payload` at `timestamp` (for tests and local tooling).
pub fn sign(payload: &[u8], secret: &str, timestamp: i64) -> String {
    let signature = signed_payload_mac(secret, timestamp, payload).finalize().into_bytes();
    format!("t={timestamp},v1={}", hex::encode(signature))
}

#[derive(Debug, Deserialize)]
pub struct Event {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub data: EventData,
}

#[derive(Debug, Deserialize)]
pub struct EventData {
    pub object: Value,
}

/// What an event asks of us.
#[derive(Debug, PartialEq, Eq)]
pub enum Action {
    /// A checkout session changed (completed, settled later, failed to settle,
    /// expired): ask the provider where it stands and record that.
    Settle { session_id: String },
    /// A tasker's Connect account changed (`account.updated`): ask the
    /// provider whether it can receive transfers now.
    CheckPayoutAccount { account_ref: String },
    /// An identity verification changed (`identity.verification_session.*`): ask the provider
    /// for the session's outcome and record it.
    CheckIdentity { session_ref: String },
    /// Anything else: acknowledged, nothing done.
    Ignore,
}

/// The checkout events we act on. `async_payment_*` follow a `completed`
/// session that was paid by a method that settles later (direct debit).
const CHECKOUT_EVENTS: [&str; 4] = [
    "checkout.session.completed",
    "checkout.session.async_payment_succeeded",
    "checkout.session.async_payment_failed",
    "checkout.session.expired",
];

impl Event {
    pub fn action(&self) -> Action {
        let object_id = self.data.object.get("id").and_then(Value::as_str).map(str::to_owned);
        match object_id {
            Some(session_id) if CHECKOUT_EVENTS.contains(&self.kind.as_str()) => Action::Settle { session_id },
            Some(account_ref) if self.kind == "account.updated" => Action::CheckPayoutAccount { account_ref },
            Some(session_ref) if self.kind.starts_with("identity.verification_session.") => {
                Action::CheckIdentity { session_ref }
            }
            _ => Action::Ignore,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_test_secret";

    #[test]
    fn a_signature_made_here_verifies_and_any_change_breaks_it() {
        let body = br#"{"id":"evt_1","type":"checkout.session.completed"}"#;
        let header = sign(body, SECRET, 1_700_000_000);
        assert_eq!(verify_signature(body, &header, SECRET, 1_700_000_100, TOLERANCE_SECS), Ok(()));
        assert_eq!(
            verify_signature(b"{}", &header, SECRET, 1_700_000_100, TOLERANCE_SECS),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify_signature(body, &header, "whsec_other", 1_700_000_100, TOLERANCE_SECS),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(verify_signature(body, &header, SECRET, 1_700_000_301, TOLERANCE_SECS), Err(SignatureError::Stale));
        assert_eq!(verify_signature(body, &header, SECRET, 1_699_999_699, TOLERANCE_SECS), Err(SignatureError::Stale));
        assert_eq!(
            verify_signature(body, "v1=abcd", SECRET, 1_700_000_000, TOLERANCE_SECS),
            Err(SignatureError::Malformed)
        );
        assert_eq!(
            verify_signature(body, "t=1700000000", SECRET, 1_700_000_000, TOLERANCE_SECS),
            Err(SignatureError::Malformed)
        );
    }

    #[test]
    fn a_delivery_exactly_at_the_tolerance_is_accepted_and_a_second_more_is_stale() {
        let body = br#"{"id":"evt_1","type":"checkout.session.completed"}"#;
        let header = sign(body, SECRET, 1_700_000_000);
        assert_eq!(verify_signature(body, &header, SECRET, 1_700_000_300, TOLERANCE_SECS), Ok(()));
        assert_eq!(verify_signature(body, &header, SECRET, 1_699_999_700, TOLERANCE_SECS), Ok(()));
        assert_eq!(verify_signature(body, &header, SECRET, 1_700_000_301, TOLERANCE_SECS), Err(SignatureError::Stale));
    }

    #[test]
    fn any_of_several_v1_signatures_may_match() {
        let body = b"{}";
        let good = sign(body, SECRET, 1_700_000_000);
        let v1 = good.split_once("v1=").unwrap().1;
        let header = format!("t=1700000000,v1={},v1={v1},v0=ignored", "00".repeat(32));
        assert_eq!(verify_signature(body, &header, SECRET, 1_700_000_000, TOLERANCE_SECS), Ok(()));
    }

    #[test]
    fn checkout_events_become_actions() {
        let event: Event = serde_json::from_str(
            r#"{"id":"evt_1","type":"checkout.session.completed","data":{"object":{"id":"cs_1"}}}"#,
        )
        .unwrap();
        assert_eq!(event.action(), Action::Settle { session_id: "cs_1".into() });
        let other: Event =
            serde_json::from_str(r#"{"id":"evt_2","type":"customer.created","data":{"object":{"id":"cus_1"}}}"#)
                .unwrap();
        assert_eq!(other.action(), Action::Ignore);
        let identity: Event = serde_json::from_str(
            r#"{"id":"evt_3","type":"identity.verification_session.verified","data":{"object":{"id":"vs_1"}}}"#,
        )
        .unwrap();
        assert_eq!(identity.action(), Action::CheckIdentity { session_ref: "vs_1".into() });
    }
}
