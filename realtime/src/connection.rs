//! One socket: a send loop (queue → socket, heartbeat) and a receive loop (protocol) joined
//! by `select!`, so whichever ends first ends the connection.

use std::{
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
use tokio::time::Instant;

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

/// What the rest of the hub holds of a socket: its queue and a way to close it (closing the
/// queue is what stops the send loop, so an idle socket waits on one notification, not two).
#[derive(Debug)]
pub(crate) struct ConnHandle {
    pub id: u64,
    pub owner: Option<SocketOwner>,
    queue: SendQueue,
    close_code: AtomicU16,
    /// When the client last sent anything and when it was last pinged, in milliseconds of the
    /// node's socket clock ([`crate::sockets::OpenSockets::now_ms`]): the node's heartbeat sweep
    /// reads them (`heartbeat.rs`), so an idle socket carries no timer of its own.
    heard_at_ms: AtomicU64,
    pinged_at_ms: AtomicU64,
}

impl ConnHandle {
    /// A socket that may have `queue_capacity` frames waiting to be written.
    pub(crate) fn new(id: u64, owner: Option<SocketOwner>, queue_capacity: usize, now_ms: u64) -> Self {
        Self {
            id,
            owner,
            queue: SendQueue::new(queue_capacity),
            close_code: AtomicU16::new(0),
            heard_at_ms: AtomicU64::new(now_ms),
            pinged_at_ms: AtomicU64::new(now_ms),
        }
    }

    /// The client sent something (any frame, a pong included).
    pub fn heard(&self, now_ms: u64) {
        self.heard_at_ms.store(now_ms, Relaxed);
    }

    /// How long the client has been silent.
    pub fn silent_ms(&self, now_ms: u64) -> u64 {
        now_ms.saturating_sub(self.heard_at_ms.load(Relaxed))
    }

    /// True (and the ping time recorded) when the last ping is `interval_ms` old.
    pub fn ping_due(&self, now_ms: u64, interval_ms: u64) -> bool {
        let pinged = self.pinged_at_ms.load(Relaxed);
        now_ms.saturating_sub(pinged) >= interval_ms
            && self.pinged_at_ms.compare_exchange(pinged, now_ms, Relaxed, Relaxed).is_ok()
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

    /// Asks the send loop to close with `code` (frames still waiting are dropped); true for the
    /// first caller.
    pub fn close(&self, code: u16) -> bool {
        let first = self.close_code.compare_exchange(0, code, Relaxed, Relaxed).is_ok();
        if first {
            self.queue.close();
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

/// Serves one upgraded socket until it closes; `guard` (its connection permit) is dropped then.
///
/// The socket is split at once (its state moves to the heap once) and every loop works on the
/// halves by reference: an async fn's future keeps each argument for as long as it runs, so a
/// value moved from one future into the next is carried twice by every idle socket.
pub(crate) fn serve(
    hub: Hub,
    socket: WebSocket,
    owner: Option<SocketOwner>,
    guard: impl Send + 'static,
) -> impl Future<Output = ()> + Send + 'static {
    let conn = hub.register(owner);
    let (sink, stream) = socket.split();
    run(hub, conn, sink, stream, guard)
}

async fn run(
    hub: Hub,
    conn: Arc<ConnHandle>,
    mut sink: SplitSink<WebSocket, Message>,
    mut stream: SplitStream<WebSocket>,
    guard: impl Send,
) {
    let mut topics = Vec::new();
    let config = hub.config();
    let mut client = Client {
        hub: &hub,
        conn: &conn,
        user_id: conn.owner.as_ref().map(|owner| owner.user_id.as_str()),
        topics: &mut topics,
        subscribe_budget: TokenBucket::new(config.subscribe_burst, config.subscribes_per_second),
        last_typing: None,
    };

    tokio::select! {
        () = send_loop(&mut sink, &conn) => {}
        () = recv_loop(&mut stream, &mut client) => {}
    }

    conn.queue.close();
    for topic in &topics {
        hub.leave(topic, conn.id);
    }
    hub.unregister(&conn);
    drop(guard);
}

/// Writes what the queue holds (events, replies, the heartbeat sweep's pings) until the queue
/// is closed or the socket fails.
async fn send_loop(sink: &mut SplitSink<WebSocket, Message>, conn: &ConnHandle) {
    // None once the queue is closed: the socket is being closed.
    while let Some(first) = conn.queue.pop().await {
        // Boxed: writing is the busy state; an idle socket's future should not be sized for it.
        let write = Box::pin(async {
            feed(sink, first).await?;
            for _ in 0..MAX_FRAMES_PER_FLUSH {
                match conn.queue.try_pop() {
                    Some(out) => feed(sink, out).await?,
                    None => break,
                }
            }
            sink.flush().await
        });
        tokio::select! {
            biased;
            () = conn.queue.closed() => break,
            result = write => if result.is_err() { return },
        }
        conn.queue.release_if_empty();
    }

    let code = conn.close_code.load(Relaxed);
    if code != 0 {
        let frame = CloseFrame { code, reason: close_reason(code).into() };
        // Boxed for the same reason as the write.
        let _ = Box::pin(tokio::time::timeout(CLOSE_GRACE, sink.send(Message::Close(Some(frame))))).await;
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

async fn recv_loop(stream: &mut SplitStream<WebSocket>, client: &mut Client<'_>) {
    if let Some(user) = client.user_id {
        // Boxed, as every message's handling is below.
        Box::pin(client.join(format!("user:{user}"), None)).await;
    }
    while let Some(Ok(message)) = stream.next().await {
        client.conn.heard(client.hub.now_ms());
        let text = match message {
            Message::Text(text) => text,
            Message::Binary(_) => {
                client.reply(protocol::error("bad_request", "expected a JSON text message", None));
                continue;
            }
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        // Boxed: handling a message may wait on the database and the bus, and an idle socket's
        // future should not be sized for that.
        Box::pin(client.handle(&text)).await;
    }
}

/// What the receive side of a socket knows about its client.
struct Client<'a> {
    hub: &'a Hub,
    conn: &'a Arc<ConnHandle>,
    user_id: Option<&'a str>,
    /// Topics this socket watches: a few, so a list (a set's table costs more).
    topics: &'a mut Vec<String>,
    subscribe_budget: TokenBucket,
    last_typing: Option<Instant>,
}

impl Client<'_> {
    fn reply(&self, frame: Utf8Bytes) -> bool {
        self.conn.deliver(Outbound::Frame(frame), self.hub.stats_ref())
    }

    /// Subscribes this socket to `topic` (again, with `since`, if it already watches it).
    async fn join(&mut self, topic: String, since: Option<u64>) {
        if self.hub.join(self.conn, &topic, since).await && !self.topics.contains(&topic) {
            // One slot at a time: most sockets watch one or two topics for their whole life.
            self.topics.reserve_exact(1);
            self.topics.push(topic);
        }
    }

    async fn handle(&mut self, text: &str) {
        let (hub, conn, user_id) = (self.hub, self.conn, self.user_id);
        let stats = hub.stats_ref();
        let config = hub.config();
        match protocol::parse_client_message(text) {
            Err(reason) => {
                self.reply(protocol::error("bad_request", &reason, None));
            }
            Ok(ClientMessage::Ping) => {
                self.reply(protocol::pong());
            }
            Ok(ClientMessage::Subscribe { topic, since }) => {
                if !self.subscribe_budget.take() {
                    stats.subscribe_rate_limited();
                    let message = "too many subscribe requests; slow down";
                    self.reply(protocol::error("rate_limited", message, Some(&topic)));
                    return;
                }
                let online_of = online::watched_user(&topic);
                if online_of.is_none() && !(config.authorize)(user_id, &topic) {
                    let message = "you may not subscribe to this topic";
                    self.reply(protocol::error("forbidden", message, Some(&topic)));
                    return;
                }
                let limit = config.max_subscriptions_per_connection;
                let known = self.topics.contains(&topic);
                if !known && self.topics.len() >= limit {
                    let message = format!("at most {limit} subscriptions per connection");
                    self.reply(protocol::error("too_many_subscriptions", &message, Some(&topic)));
                    return;
                }
                if let Some(user) = online_of {
                    // The server decides who may see it (`online_access`).
                    let allowed = hub.watch_online(conn, user).await;
                    match self.topics.iter().position(|known| *known == topic) {
                        Some(at) if !allowed => {
                            self.topics.swap_remove(at);
                        }
                        None if allowed => {
                            self.topics.reserve_exact(1);
                            self.topics.push(topic);
                        }
                        _ => {}
                    }
                    return;
                }
                if !known && !(config.topic_exists)(&topic).await {
                    self.reply(protocol::error("not_found", "there is no such topic", Some(&topic)));
                    return;
                }
                self.join(topic, since).await;
            }
            Ok(ClientMessage::Typing { task_id }) => {
                let Some(user) = user_id else {
                    self.reply(protocol::error("forbidden", "sign in to type in a conversation", None));
                    return;
                };
                if self.last_typing.is_some_and(|at| at.elapsed() < config.typing_interval) {
                    return;
                }
                self.last_typing = Some(Instant::now());
                match (config.typing_peer)(user, &task_id).await {
                    Some(peer) => {
                        let frame = protocol::typing(&task_id, user);
                        hub.send_ephemeral(&format!("user:{peer}"), frame).await;
                    }
                    None => {
                        self.reply(protocol::error(
                            "forbidden",
                            "you are not a party to this task's conversation",
                            None,
                        ));
                    }
                }
            }
            Ok(ClientMessage::Unsubscribe { topic }) => {
                if let Some(at) = self.topics.iter().position(|known| *known == topic) {
                    self.topics.swap_remove(at);
                    hub.leave(&topic, conn.id);
                }
            }
        }
    }
}
