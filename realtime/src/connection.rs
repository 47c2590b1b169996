//! One socket: how the hub accepts it ([`Hub::accept`]), then a send loop (queue → socket,
//! heartbeat) and a receive loop (protocol) joined by `select!`, so whichever ends first ends
//! the connection.

use std::{net::IpAddr, sync::Arc, time::Duration};

use axum::{
    extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use futures_util::{
    SinkExt, StreamExt,
    stream::{SplitSink, SplitStream},
};
use tokio::time::Instant;

use crate::{
    CLOSE_GOING_AWAY, CLOSE_HEARTBEAT_TIMEOUT, CLOSE_SLOW_CONSUMER, CLOSE_TOO_MANY_CONNECTIONS, CLOSE_UNAUTHORIZED,
    clients::ClientSlot,
    handle::{ConnHandle, SocketOwner},
    hub::Hub,
    online,
    protocol::{self, ClientMessage},
    queue::Outbound,
    rate::TokenBucket,
};

/// Frames written per flush, so one busy socket cannot starve the heartbeat.
const MAX_FRAMES_PER_FLUSH: usize = 64;
/// Time a closing socket gets to take its close frame.
const CLOSE_GRACE: Duration = Duration::from_secs(5);

/// Accepting a socket: the hub's upgrade handlers, which hand each accepted socket to its loops.
impl Hub {
    /// Upgrade handler body: the server resolved the ticket to its owner (None: a visitor). A
    /// signed-in socket is subscribed to `user:{id}` at once, and closes when its session or
    /// user is disconnected ([`Hub::disconnect`]). Past `max_connections`, answers 503. No
    /// per-client cap: for a caller that cannot tell clients apart; see [`Hub::accept_from`].
    pub fn accept(&self, ws: WebSocketUpgrade, owner: Option<SocketOwner>) -> Response {
        self.accept_slot(ws, owner, None)
    }

    /// [`Hub::accept`] for a socket of `client` (its address, as the server sees it behind
    /// any trusted proxy). A client that already has `max_connections_per_client` open sockets
    /// gets its upgrade completed and closed at once with 4029, which a browser can read
    /// (an HTTP status refusing the upgrade never reaches page scripts).
    pub fn accept_from(&self, ws: WebSocketUpgrade, owner: Option<SocketOwner>, client: IpAddr) -> Response {
        match self.client_slot(client) {
            Some(slot) => self.accept_slot(ws, owner, Some(slot)),
            None => {
                self.stats_ref().refused_per_client();
                self.close_at_once(ws, CLOSE_TOO_MANY_CONNECTIONS, "too many connections from your address")
            }
        }
    }

    fn accept_slot(&self, ws: WebSocketUpgrade, owner: Option<SocketOwner>, slot: Option<ClientSlot>) -> Response {
        let Some(permit) = self.admit() else {
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "5")],
                "too many connections, try again later",
            )
                .into_response();
        };
        let hub = self.clone();
        let client = slot.as_ref().map(ClientSlot::client);
        self.configure(ws)
            .on_failed_upgrade(|error| tracing::debug!(%error, "websocket upgrade failed"))
            .on_upgrade(move |socket| serve(hub, socket, owner, client, (permit, slot)))
    }

    /// Completes the upgrade, then closes with 4001 (invalid or expired ticket), so browsers
    /// can tell a bad ticket from a network failure.
    pub fn reject_unauthorized(&self, ws: WebSocketUpgrade) -> Response {
        self.close_at_once(ws, CLOSE_UNAUTHORIZED, "unauthorized")
    }

    fn close_at_once(&self, ws: WebSocketUpgrade, code: u16, reason: &'static str) -> Response {
        self.configure(ws).on_upgrade(move |mut socket| async move {
            let frame = CloseFrame { code, reason: reason.into() };
            let _ = socket.send(Message::Close(Some(frame))).await;
        })
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
fn serve(
    hub: Hub,
    socket: WebSocket,
    owner: Option<SocketOwner>,
    client: Option<IpAddr>,
    guard: impl Send + 'static,
) -> impl Future<Output = ()> + Send + 'static {
    let conn = hub.register(owner, client);
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

    let code = conn.close_code();
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
