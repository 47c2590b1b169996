//! The JSON messages of the `/ws` protocol (docs/architecture.md, "The WebSocket protocol").

use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::ws::Utf8Bytes;
use serde::Deserialize;
use serde_json::{Value, json};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};

pub(crate) const MAX_TOPIC_LEN: usize = 128;

#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum ClientMessage {
    Subscribe {
        topic: String,
        since: Option<u64>,
    },
    Unsubscribe {
        topic: String,
    },
    Ping,
    /// The user is typing in the task's conversation; forwarded to the other party only.
    Typing {
        task_id: String,
    },
}

pub(crate) fn parse_client_message(text: &str) -> Result<ClientMessage, String> {
    let message: ClientMessage = serde_json::from_str(text).map_err(|e| e.to_string())?;
    match &message {
        ClientMessage::Subscribe { topic, .. } | ClientMessage::Unsubscribe { topic } => check_topic(topic)?,
        ClientMessage::Typing { task_id } => check_topic(task_id)?,
        ClientMessage::Ping => {}
    }
    Ok(message)
}

/// Topics end up in Redis key and channel names, so they stay short and plain.
pub(crate) fn check_topic(topic: &str) -> Result<(), String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, ':' | '-' | '_' | '.');
    if topic.is_empty() || topic.len() > MAX_TOPIC_LEN || !topic.chars().all(plain) {
        return Err(format!("topic must be 1 to {MAX_TOPIC_LEN} characters of letters, digits, ':', '-', '_' or '.'"));
    }
    Ok(())
}

/// An event serialized once without its sequence number, which is only known when the topic
/// assigns it (locally, or inside the Redis script). `prefix + seq + suffix` is the frame.
#[derive(Debug, Clone)]
pub(crate) struct EventTemplate {
    pub prefix: String,
    pub suffix: String,
    pub at_ms: u64,
}

impl EventTemplate {
    pub fn new(topic: &str, event: &str, data: &Value) -> Self {
        let now = OffsetDateTime::now_utc();
        let at = now.format(&Rfc3339).unwrap_or_default();
        let prefix = format!(r#"{{"type":"event","topic":{},"seq":"#, json!(topic));
        let suffix = format!(r#","event":{},"data":{},"at":{}}}"#, json!(event), data, json!(at));
        Self { prefix, suffix, at_ms: (now.unix_timestamp_nanos() / 1_000_000) as u64 }
    }

    pub fn frame(&self, seq: u64) -> Utf8Bytes {
        let mut frame = String::with_capacity(self.prefix.len() + self.suffix.len() + 20);
        frame.push_str(&self.prefix);
        frame.push_str(&seq.to_string());
        frame.push_str(&self.suffix);
        frame.into()
    }
}

pub(crate) fn subscribed(topic: &str, seq: u64, recovered: bool) -> Utf8Bytes {
    json!({"type": "subscribed", "topic": topic, "seq": seq, "recovered": recovered}).to_string().into()
}

/// `subscribed` with recovered:false for a client that had the topic: it must refetch, after
/// `refetch_after_ms` ([`crate::refetch_pacer`]).
pub(crate) fn subscribed_refetch(topic: &str, seq: u64, refetch_after_ms: u64) -> Utf8Bytes {
    json!({"type": "subscribed", "topic": topic, "seq": seq, "recovered": false, "refetch_after_ms": refetch_after_ms})
        .to_string()
        .into()
}

pub(crate) fn error(code: &str, message: &str, topic: Option<&str>) -> Utf8Bytes {
    let mut value = json!({"type": "error", "code": code, "message": message});
    if let Some(topic) = topic {
        value["topic"] = json!(topic);
    }
    value.to_string().into()
}

pub(crate) fn status(live: bool) -> Utf8Bytes {
    match live {
        true => Utf8Bytes::from_static(r#"{"type":"status","live":"ok"}"#),
        false => Utf8Bytes::from_static(r#"{"type":"status","live":"degraded"}"#),
    }
}

pub(crate) fn typing(task_id: &str, user_id: &str) -> Utf8Bytes {
    json!({"type": "typing", "task_id": task_id, "user_id": user_id}).to_string().into()
}

pub(crate) fn pong() -> Utf8Bytes {
    Utf8Bytes::from_static(r#"{"type":"pong"}"#)
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// First sequence number of a topic that has no state (new, expired, or after a restart).
/// Time-based so a client holding a `since` from an earlier incarnation of the topic can never
/// mistake the new numbers for the old ones: it gets `recovered:false` instead. Stays below
/// 2^53, so JavaScript reads it exactly.
pub(crate) fn sequence_base() -> u64 {
    now_ms() * 1000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_subscribe_with_and_without_since() {
        assert_eq!(
            parse_client_message(r#"{"type":"subscribe","topic":"task:1","since":7}"#),
            Ok(ClientMessage::Subscribe { topic: "task:1".into(), since: Some(7) })
        );
        assert_eq!(
            parse_client_message(r#"{"type":"subscribe","topic":"tasks"}"#),
            Ok(ClientMessage::Subscribe { topic: "tasks".into(), since: None })
        );
        assert_eq!(parse_client_message(r#"{"type":"ping"}"#), Ok(ClientMessage::Ping));
    }

    #[test]
    fn rejects_malformed_messages_and_odd_topics() {
        assert!(parse_client_message("not json").is_err());
        assert!(parse_client_message(r#"{"type":"dance"}"#).is_err());
        assert!(parse_client_message(r#"{"type":"subscribe","topic":"a b"}"#).is_err());
        assert!(parse_client_message(r#"{"type":"subscribe","topic":"{x}"}"#).is_err());
        assert!(parse_client_message(r#"{"type":"subscribe","topic":""}"#).is_err());
    }

    #[test]
    fn event_frame_is_the_contract_shape() {
        let template = EventTemplate::new("task:1", "offer.created", &json!({"id": "o1"}));
        let frame: Value = serde_json::from_str(template.frame(42).as_str()).unwrap();
        assert_eq!(frame["type"], "event");
        assert_eq!(frame["topic"], "task:1");
        assert_eq!(frame["seq"], 42);
        assert_eq!(frame["event"], "offer.created");
        assert_eq!(frame["data"]["id"], "o1");
        let at = frame["at"].as_str().unwrap();
        assert!(at.ends_with('Z') && at.contains('T'), "{at}");
    }
}
