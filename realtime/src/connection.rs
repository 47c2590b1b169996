//! One socket: a send loop (queue → socket, heartbeat) and a receive loop (protocol) joined
//! by `select!`, so whichever ends first ends the connection.

use std::{
    collections::HashSet,
    sync::{
        Arc,
        atomic::{AtomicU16, AtomicU64, Ordering::Relaxed},
    },
    time::Duration,
};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use bytes::Bytes;
use futures_util::{
    SinkExt, StreamExt,
    stream::{SplitSink, SplitStream},
};
use tokio::{
    sync::{Notify, mpsc},
    time::{Instant, MissedTickBehavior},
};

use crate::{
    CLOSE_GOING_AWAY, CLOSE_HEARTBEAT_TIMEOUT, CLOSE_SLOW_CONSUMER, CLOSE_UNAUTHORIZED,
    hub::Hub,
    protocol::{self, ClientMessage},
    rate::TokenBucket,
    sockets::SocketOwner,
    stats::Stats,
};

/// Frames written per flush, so one busy socket cannot starve the heartbeat.
const MAX_FRAMES_PER_FLUSH: usize = 64;
/// Time a closing socket gets to take its close frame.
const CLOSE_GRACE: Duration = Duration::from_secs(5);

#[derive(Debug)]
pub(crate) enum Outbound {
    Frame(Utf8Bytes),
    /// Queued as one unit so nothing can come between its frames (`subscribed` + replay).
    Batch(Vec<Utf8Bytes>),
    Ping,
}

/// What the rest of the hub holds of a socket: its queue and a way to close it.
#[derive(Debug)]
pub(crate) struct ConnHandle {
    pub id: u64,
    pub owner: Option<SocketOwner>,
    tx: mpsc::Sender<Outbound>,
    close_code: AtomicU16,
    kill: Notify,
}

impl ConnHandle {
    pub(crate) fn new(id: u64, owner: Option<SocketOwner>, tx: mpsc::Sender<Outbound>) -> Self {
        Self { id, owner, tx, close_code: AtomicU16::new(0), kill: Notify::new() }
    }

    /// Queues without waiting; a full queue closes the socket as a slow consumer.
    pub fn deliver(&self, out: Outbound, stats: &Stats) -> bool {
        match self.tx.try_send(out) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                if self.close(CLOSE_SLOW_CONSUMER) {
                    stats.closed_slow_consumer();
                }
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Asks the send loop to close with `code`; true for the first caller.
    pub fn close(&self, code: u16) -> bool {
        let first = self.close_code.compare_exchange(0, code, Relaxed, Relaxed).is_ok();
        if first {
            self.kill.notify_one();
        }
        first
    }
}

fn close_reason(code: u16) -> &'static str {
    match code {
        CLOSE_SLOW_CONSUMER => "slow consumer",
        CLOSE_HEARTBEAT_TIMEOUT => "heartbeat timeout",
        CLOSE_GOING_AWAY => "server shutting down",
        CLOSE_UNAUTHORIZED => "session ended",
        _ => "closing",
    }
}

/// Milliseconds since the connection opened at which the client last sent anything.
struct LastSeen {
    opened: Instant,
    at_ms: AtomicU64,
}

impl LastSeen {
    fn touch(&self) {
        self.at_ms.store(self.opened.elapsed().as_millis() as u64, Relaxed);
    }

    fn silent_for(&self) -> Duration {
        self.opened.elapsed().saturating_sub(Duration::from_millis(self.at_ms.load(Relaxed)))
    }
}

pub(crate) async fn serve(hub: Hub, socket: WebSocket, owner: Option<SocketOwner>) {
    let config = hub.config();
    let (tx, rx) = mpsc::channel(config.send_queue_capacity.max(2));
    let conn = hub.register(tx, owner);
    let user_id = conn.owner.as_ref().map(|owner| owner.user_id.as_str());
    let last_seen = LastSeen { opened: Instant::now(), at_ms: AtomicU64::new(0) };
    let mut topics = HashSet::new();

    let (sink, stream) = socket.split();
    tokio::select! {
        () = send_loop(sink, rx, &conn, &hub, &last_seen) => {}
        () = async {
            if let Some(user) = user_id {
                let topic = format!("user:{user}");
                if Box::pin(hub.join(&conn, &topic, None)).await {
                    topics.insert(topic);
                }
            }
            recv_loop(stream, &hub, &conn, user_id, &mut topics, &last_seen).await
        } => {}
    }

    for topic in &topics {
        hub.leave(topic, conn.id);
    }
    hub.unregister(&conn);
}

async fn send_loop(
    mut sink: SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<Outbound>,
    conn: &ConnHandle,
    hub: &Hub,
    last_seen: &LastSeen,
) {
    let config = hub.config();
    let mut ping = tokio::time::interval_at(Instant::now() + config.ping_interval, config.ping_interval);
    ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let idle = tokio::time::sleep(config.idle_timeout);
    tokio::pin!(idle);

    loop {
        let first = tokio::select! {
            biased;
            () = conn.kill.notified() => break,
            () = &mut idle => {
                let silent = last_seen.silent_for();
                if silent >= config.idle_timeout {
                    if conn.close(CLOSE_HEARTBEAT_TIMEOUT) {
                        hub.stats_ref().closed_heartbeat();
                    }
                    break;
                }
                idle.as_mut().reset(Instant::now() + (config.idle_timeout - silent));
                continue;
            }
            out = rx.recv() => match out {
                Some(out) => out,
                None => break,
            },
            _ = ping.tick() => Outbound::Ping,
        };
        let write = async {
            feed(&mut sink, first).await?;
            for _ in 0..MAX_FRAMES_PER_FLUSH {
                match rx.try_recv() {
                    Ok(out) => feed(&mut sink, out).await?,
                    Err(_) => break,
                }
            }
            sink.flush().await
        };
        tokio::select! {
            biased;
            () = conn.kill.notified() => break,
            result = write => if result.is_err() { return },
        }
    }

    let code = conn.close_code.load(Relaxed);
    if code != 0 {
        let frame = CloseFrame { code, reason: close_reason(code).into() };
        let _ = tokio::time::timeout(CLOSE_GRACE, sink.send(Message::Close(Some(frame)))).await;
    }
}

async fn feed(sink: &mut SplitSink<WebSocket, Message>, out: Outbound) -> Result<(), axum::Error> {
    match out {
        Outbound::Frame(frame) => sink.feed(Message::Text(frame)).await,
        Outbound::Batch(frames) => {
            for frame in frames {
                sink.feed(Message::Text(frame)).await?;
            }
            Ok(())
        }
        Outbound::Ping => sink.feed(Message::Ping(Bytes::new())).await,
    }
}

async fn recv_loop(
    mut stream: SplitStream<WebSocket>,
    hub: &Hub,
    conn: &Arc<ConnHandle>,
    user_id: Option<&str>,
    topics: &mut HashSet<String>,
    last_seen: &LastSeen,
) {
    let stats = hub.stats_ref();
    let config = hub.config();
    let reply = |frame: Utf8Bytes| conn.deliver(Outbound::Frame(frame), stats);
    let mut subscribe_budget = TokenBucket::new(config.subscribe_burst, config.subscribes_per_second);
    while let Some(Ok(message)) = stream.next().await {
        last_seen.touch();
        let text = match message {
            Message::Text(text) => text,
            Message::Binary(_) => {
                reply(protocol::error("bad_request", "expected a JSON text message", None));
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        match protocol::parse_client_message(&text) {
            Err(reason) => {
                reply(protocol::error("bad_request", &reason, None));
            }
            Ok(ClientMessage::Ping) => {
                reply(protocol::pong());
            }
            Ok(ClientMessage::Subscribe { topic, since }) => {
                if !subscribe_budget.take() {
                    stats.subscribe_rate_limited();
                    let message = "too many subscribe requests; slow down";
                    reply(protocol::error("rate_limited", message, Some(&topic)));
                    continue;
                }
                if !(config.authorize)(user_id, &topic) {
                    let message = "you may not subscribe to this topic";
                    reply(protocol::error("forbidden", message, Some(&topic)));
                    continue;
                }
                let limit = config.max_subscriptions_per_connection;
                let known = topics.contains(&topic);
                if !known && topics.len() >= limit {
                    let message = format!("at most {limit} subscriptions per connection");
                    reply(protocol::error("too_many_subscriptions", &message, Some(&topic)));
                    continue;
                }
                if !known && !(config.topic_exists)(&topic).await {
                    reply(protocol::error("not_found", "there is no such topic", Some(&topic)));
                    continue;
                }
                // Boxed: subscribing is rare, and an idle socket should not carry its state.
                if Box::pin(hub.join(conn, &topic, since)).await {
                    topics.insert(topic);
                }
            }
            Ok(ClientMessage::Unsubscribe { topic }) => {
                if topics.remove(&topic) {
                    hub.leave(&topic, conn.id);
                }
            }
        }
    }
}
