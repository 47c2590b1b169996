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
use tokio::{sync::Notify, time::Instant};

use crate::{
    CLOSE_GOING_AWAY, CLOSE_HEARTBEAT_TIMEOUT, CLOSE_SLOW_CONSUMER, CLOSE_UNAUTHORIZED,
    hub::Hub,
    online,
    protocol::{self, ClientMessage},
    queue::{Pushed, SendQueue},
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
    queue: SendQueue,
    close_code: AtomicU16,
    kill: Notify,
}

impl ConnHandle {
    /// A socket that may have `queue_capacity` frames waiting to be written.
    pub(crate) fn new(id: u64, owner: Option<SocketOwner>, queue_capacity: usize) -> Self {
        Self { id, owner, queue: SendQueue::new(queue_capacity), close_code: AtomicU16::new(0), kill: Notify::new() }
    }

    /// Queues without waiting; a full queue closes the socket as a slow consumer.
    pub fn deliver(&self, out: Outbound, stats: &Stats) -> bool {
        match self.queue.push(out) {
            Pushed::Queued => true,
            Pushed::Full => {
                if self.close(CLOSE_SLOW_CONSUMER) {
                    stats.closed_slow_consumer();
                }
                false
            }
            Pushed::Closed => false,
        }
    }

    /// The next queued frame, if any (tests look at what a socket was sent).
    #[cfg(test)]
    pub fn try_take(&self) -> Option<Outbound> {
        self.queue.try_pop()
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
    let conn = hub.register(owner);
    let user_id = conn.owner.as_ref().map(|owner| owner.user_id.as_str());
    let last_seen = LastSeen { opened: Instant::now(), at_ms: AtomicU64::new(0) };
    let mut topics = HashSet::new();

    let (sink, stream) = socket.split();
    tokio::select! {
        () = send_loop(sink, &conn, &hub, &last_seen) => {}
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

    conn.queue.close();
    for topic in &topics {
        hub.leave(topic, conn.id);
    }
    hub.unregister(&conn);
}

async fn send_loop(mut sink: SplitSink<WebSocket, Message>, conn: &ConnHandle, hub: &Hub, last_seen: &LastSeen) {
    let config = hub.config();
    // One timer for both heartbeats (an idle socket keeps one timer entry, not two): it fires
    // at the next ping or when the client has been silent for `idle_timeout`, whichever is first.
    let mut next_ping = Instant::now() + config.ping_interval;
    let timer = tokio::time::sleep_until(next_ping.min(Instant::now() + config.idle_timeout));
    tokio::pin!(timer);

    loop {
        let first = tokio::select! {
            biased;
            () = conn.kill.notified() => break,
            () = &mut timer => {
                let silent = last_seen.silent_for();
                if silent >= config.idle_timeout {
                    if conn.close(CLOSE_HEARTBEAT_TIMEOUT) {
                        hub.stats_ref().closed_heartbeat();
                    }
                    break;
                }
                let now = Instant::now();
                let ping_due = now >= next_ping;
                if ping_due {
                    next_ping = now + config.ping_interval;
                }
                timer.as_mut().reset(next_ping.min(now + (config.idle_timeout - silent)));
                if !ping_due {
                    continue;
                }
                Outbound::Ping
            }
            out = conn.queue.pop() => match out {
                Some(out) => out,
                None => break,
            },
        };
        let write = async {
            feed(&mut sink, first).await?;
            for _ in 0..MAX_FRAMES_PER_FLUSH {
                match conn.queue.try_pop() {
                    Some(out) => feed(&mut sink, out).await?,
                    None => break,
                }
            }
            sink.flush().await
        };
        tokio::select! {
            biased;
            () = conn.kill.notified() => break,
            result = write => if result.is_err() { return },
        }
        conn.queue.release_if_empty();
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
    let mut last_typing: Option<Instant> = None;
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
                let online_of = online::watched_user(&topic);
                if online_of.is_none() && !(config.authorize)(user_id, &topic) {
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
                if let Some(user) = online_of {
                    // The server decides who may see it (`online_access`); boxed like `join`.
                    if Box::pin(hub.watch_online(conn, user)).await {
                        topics.insert(topic);
                    } else {
                        topics.remove(&topic);
                    }
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
            Ok(ClientMessage::Typing { task_id }) => {
                let Some(user) = user_id else {
                    reply(protocol::error("forbidden", "sign in to type in a conversation", None));
                    continue;
                };
                if last_typing.is_some_and(|at| at.elapsed() < config.typing_interval) {
                    continue;
                }
                last_typing = Some(Instant::now());
                match (config.typing_peer)(user, &task_id).await {
                    // Boxed, as subscribing is: an idle socket should not carry this state.
                    Some(peer) => {
                        let frame = protocol::typing(&task_id, user);
                        Box::pin(hub.send_ephemeral(&format!("user:{peer}"), frame)).await;
                    }
                    None => {
                        reply(protocol::error("forbidden", "you are not a party to this task's conversation", None));
                    }
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
