//! A soak client's socket, kept the way the web app keeps it (web/src/lib/realtime/client.ts):
//! reconnect with jittered backoff (through nginx, so possibly to the other node), a fresh
//! ticket per connection, resubscribe every topic with the last `seq` seen as `since`, report
//! `recovered:false` after a gap as "refetch", and pass `status` frames on.

use std::{collections::HashMap, sync::Arc, time::Duration};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use crate::{api::Api, metrics::Metrics};

pub enum Incoming {
    /// `replayed`: delivered as part of a `since` recovery rather than live.
    /// `received`: when it arrived, since the start of the run.
    Event { topic: String, event: String, data: Value, replayed: bool, received: Duration },
    /// The hub could not replay a gap on this topic: refetch it over REST.
    Refetch(String),
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

/// Opens a socket (signed in when `token` is given) that keeps itself connected until dropped.
pub fn open(api: Api, token: Option<String>, user_id: Option<String>, metrics: Arc<Metrics>) -> Socket {
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
                        let Ok(message) = serde_json::from_str::<Value>(&text) else { continue };
                        attempt = 0;
                        if !handle(&message, &mut topics, &incoming_tx, &metrics) {
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
    message: &Value,
    topics: &mut HashMap<String, Topic>,
    incoming: &mpsc::UnboundedSender<Incoming>,
    metrics: &Metrics,
) -> bool {
    let name = message["topic"].as_str().unwrap_or_default();
    match message["type"].as_str() {
        Some("status") => incoming.send(Incoming::Live(message["live"] == "ok")).is_ok(),
        Some("subscribed") => {
            let Some(topic) = topics.get_mut(name) else { return true };
            let seq = message["seq"].as_u64().unwrap_or(0);
            let had_seq = topic.seq.is_some();
            topic.seq = Some(topic.seq.unwrap_or(0).max(seq));
            topic.replay_until = seq;
            if message["recovered"] == false && had_seq {
                return incoming.send(Incoming::Refetch(name.to_owned())).is_ok();
            }
            // As the web app closes the gap between its first fetch and the first ack
            // (`closeSubscribeGap`): what the user was notified of meanwhile was not delivered.
            if !had_seq && name.starts_with("user:") {
                return incoming.send(Incoming::Refetch(name.to_owned())).is_ok();
            }
            true
        }
        Some("event") => {
            let Some(topic) = topics.get_mut(name) else { return true };
            let seq = message["seq"].as_u64().unwrap_or(0);
            if topic.seq.is_some_and(|seen| seq <= seen) {
                return true; // already seen (a replay overlapping live delivery)
            }
            topic.seq = Some(seq);
            let replayed = seq <= topic.replay_until;
            if !replayed
                && let Some(at) = message["at"].as_str()
                && let Ok(at) = OffsetDateTime::parse(at, &Rfc3339)
            {
                metrics.event((OffsetDateTime::now_utc() - at).as_seconds_f64() * 1000.0);
            }
            incoming
                .send(Incoming::Event {
                    topic: name.to_owned(),
                    event: message["event"].as_str().unwrap_or_default().to_owned(),
                    data: message["data"].clone(),
                    replayed,
                    received: metrics.now(),
                })
                .is_ok()
        }
        _ => true,
    }
}
