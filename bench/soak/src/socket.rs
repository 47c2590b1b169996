//! A soak client's socket, kept the way the web app keeps it (web/src/lib/realtime/client.ts):
//! reconnect with jittered backoff (through nginx, so possibly to the other node), a fresh
//! ticket per connection, resubscribe every topic with the last `seq` seen as `since`, report
//! `recovered:false` after a gap as "refetch", and pass `status` frames on.

use std::{borrow::Cow, collections::HashMap, sync::Arc, time::Duration};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json, value::RawValue};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use crate::{api::Api, metrics::Metrics};

pub enum Incoming {
    /// `replayed`: delivered as part of a `since` recovery rather than live.
    /// `received`: when it arrived, since the start of the run.
    Event { topic: String, event: String, data: Value, replayed: bool, received: Duration },
    /// The hub could not replay a gap on this topic: refetch it over REST, `after` the slot the
    /// node gave (`refetch_after_ms`; 0 on a small topic).
    Refetch { topic: String, after: Duration },
    /// `{"type":"status","live":…}`: true when ok.
    Live(bool),
}

pub enum Command {
    Subscribe(String),
}

pub struct Socket {
    pub commands: mpsc::UnboundedSender<Command>,
    pub incoming: mpsc::UnboundedReceiver<Incoming>,
}

struct Topic {
    seq: Option<u64>,
    /// Events up to this seq are the replay of the last `since` subscribe.
    replay_until: u64,
}

/// A frame from the hub, read without building a JSON tree: 2,000 sockets receive some 16,000
/// frames a second on the cores the cluster runs on, so the client's own parsing is part of
/// every latency the soak measures.
#[derive(Deserialize)]
struct Frame<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    topic: Cow<'a, str>,
    seq: Option<u64>,
    recovered: Option<bool>,
    refetch_after_ms: Option<u64>,
    #[serde(borrow)]
    live: Option<Cow<'a, str>>,
    #[serde(borrow)]
    event: Option<Cow<'a, str>>,
    #[serde(borrow)]
    at: Option<Cow<'a, str>>,
    #[serde(borrow)]
    data: Option<&'a RawValue>,
}

/// Opens a socket (signed in when `token` is given) that keeps itself connected until dropped.
/// Events are handed on only with `wants_events` (a watcher only measures them: waking its task
/// for each of them would be the client's own cost in every event's latency).
pub fn open(
    api: Api,
    token: Option<String>,
    user_id: Option<String>,
    metrics: Arc<Metrics>,
    wants_events: bool,
) -> Socket {
    let (commands, mut command_rx) = mpsc::unbounded_channel();
    let (incoming_tx, incoming) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut topics: HashMap<String, Topic> = HashMap::new();
        if let Some(user) = &user_id {
            topics.insert(format!("user:{user}"), Topic { seq: None, replay_until: 0 });
        }
        let ws_base = api.base.replacen("http", "ws", 1);
        let mut attempt: u32 = 0;
        loop {
            if attempt > 0 {
                // The web app's backoff: 250 ms doubling to 10 s, jittered.
                let ceiling = 500u64.saturating_mul(1 << attempt.min(5)).min(10_000);
                tokio::time::sleep(Duration::from_millis(ceiling / 2 + fastrand::u64(0..=ceiling / 2))).await;
            }
            attempt += 1;
            let mut url = format!("{ws_base}/ws");
            if let Some(token) = &token {
                match api.ticket(token).await {
                    Some(ticket) => url = format!("{url}?ticket={ticket}"),
                    None => continue,
                }
            }
            let Ok(Ok((ws, _))) =
                tokio::time::timeout(Duration::from_secs(8), tokio_tungstenite::connect_async(&url)).await
            else {
                continue;
            };
            let (mut sink, mut stream) = ws.split();
            if let Some(user) = &user_id {
                metrics.user_topic_saw(user, "socket open".into());
            }
            let mut subscribe_all = Vec::new();
            for (name, topic) in &topics {
                let mut message = json!({"type": "subscribe", "topic": name});
                if let Some(seq) = topic.seq {
                    message["since"] = json!(seq);
                } else if name.starts_with("user:") {
                    continue; // the server subscribes a signed-in socket to its own topic
                }
                subscribe_all.push(Message::text(message.to_string()));
            }
            let mut sent = true;
            for message in subscribe_all {
                sent &= sink.send(message).await.is_ok();
            }
            if !sent {
                continue;
            }
            let mut ping = tokio::time::interval(Duration::from_secs(25));
            loop {
                tokio::select! {
                    frame = stream.next() => {
                        let Some(Ok(frame)) = frame else { break };
                        let Message::Text(text) = frame else { continue };
                        let Ok(frame) = serde_json::from_str::<Frame>(&text) else { continue };
                        attempt = 0;
                        if !handle(&frame, &mut topics, &incoming_tx, &metrics, wants_events) {
                            return;
                        }
                    }
                    command = command_rx.recv() => match command {
                        None => return,
                        Some(Command::Subscribe(name)) => {
                            if topics.contains_key(&name) {
                                continue;
                            }
                            topics.insert(name.clone(), Topic { seq: None, replay_until: 0 });
                            let message = json!({"type": "subscribe", "topic": name}).to_string();
                            if sink.send(Message::text(message)).await.is_err() {
                                break;
                            }
                        }
                    },
                    _ = ping.tick() => {
                        if sink.send(Message::text(r#"{"type":"ping"}"#)).await.is_err() {
                            break;
                        }
                    }
                }
            }
        }
    });
    Socket { commands, incoming }
}

/// False when nobody listens any more.
fn handle(
    frame: &Frame,
    topics: &mut HashMap<String, Topic>,
    incoming: &mpsc::UnboundedSender<Incoming>,
    metrics: &Metrics,
    wants_events: bool,
) -> bool {
    let name = frame.topic.as_ref();
    match frame.kind.as_ref() {
        "status" => incoming.send(Incoming::Live(frame.live.as_deref() == Some("ok"))).is_ok(),
        "subscribed" => {
            let Some(topic) = topics.get_mut(name) else { return true };
            let seq = frame.seq.unwrap_or(0);
            let had_seq = topic.seq.is_some();
            // Not recovered: the topic goes on from the hub's number, also when it is below the
            // one seen (as in the web app's client.ts).
            topic.seq = Some(if frame.recovered == Some(true) { topic.seq.unwrap_or(0).max(seq) } else { seq });
            topic.replay_until = seq;
            if let Some(user) = name.strip_prefix("user:") {
                metrics.user_topic_saw(user, format!("subscribed seq {seq} recovered {:?}", frame.recovered));
            }
            if frame.recovered == Some(false) && had_seq {
                let after = Duration::from_millis(frame.refetch_after_ms.unwrap_or(0));
                return incoming.send(Incoming::Refetch { topic: name.to_owned(), after }).is_ok();
            }
            // As the web app closes the gap between its first fetch and the first ack
            // (`closeSubscribeGap`): what the user was notified of meanwhile was not delivered.
            if !had_seq && name.starts_with("user:") {
                return incoming.send(Incoming::Refetch { topic: name.to_owned(), after: Duration::ZERO }).is_ok();
            }
            true
        }
        "event" => {
            let Some(topic) = topics.get_mut(name) else { return true };
            let seq = frame.seq.unwrap_or(0);
            if let Some(user) = name.strip_prefix("user:") {
                let seen = topic.seq.unwrap_or(0);
                metrics.user_topic_saw(
                    user,
                    format!("event seq {seq} (seen {seen}) {}", frame.event.as_deref().unwrap_or("")),
                );
            }
            if topic.seq.is_some_and(|seen| seq <= seen) {
                return true; // already seen (a replay overlapping live delivery)
            }
            topic.seq = Some(seq);
            let replayed = seq <= topic.replay_until;
            if !replayed
                && let Some(at) = &frame.at
                && let Ok(at) = OffsetDateTime::parse(at, &Rfc3339)
            {
                metrics.event((OffsetDateTime::now_utc() - at).as_seconds_f64() * 1000.0);
            }
            if !wants_events {
                return true;
            }
            incoming
                .send(Incoming::Event {
                    topic: name.to_owned(),
                    event: frame.event.as_deref().unwrap_or_default().to_owned(),
                    data: frame.data.and_then(|data| serde_json::from_str(data.get()).ok()).unwrap_or(Value::Null),
                    replayed,
                    received: metrics.now(),
                })
                .is_ok()
        }
        _ => true,
    }
}
