//! The WebSocket hub of Taskhub: sockets, topics, the `/ws` protocol, per-topic history for
//! recovery, and the bus that carries events between nodes. It knows nothing of tasks or
//! offers: the server decides who may watch which topic (`HubConfig::authorize`) and what to
//! publish (`Hub::publish`).
//!
//! # Protocol (docs/architecture.md, "The WebSocket protocol")
//! Client → server: `{"type":"subscribe","topic":…,"since":<seq>?}`, `{"type":"unsubscribe",
//! "topic":…}`, `{"type":"ping"}`. Server → client: `{"type":"status","live":"ok"|"degraded"}`
//! (see "Degraded live updates"), `{"type":"subscribed","topic","seq","recovered"}`, `{"type":"event","topic","seq","event","data","at"}`, `{"type":"error",
//! "code","message","topic"?}`, `{"type":"pong"}`.
//!
//! - `subscribed.seq` is the topic's latest sequence number when the subscription took effect;
//!   every later event has a greater one. With `since`, the missed events (`since+1 ..= seq`)
//!   follow `subscribed` in order and `recovered` is true; when any of them is no longer in the
//!   history (count `history_len`, age `history_max_age`) nothing is replayed and `recovered`
//!   is false: the client refetches over REST. A subscribe without `since` answers
//!   `recovered:false` (there was nothing to recover; the client loads state over REST).
//! - Sequence numbers start from a time-based value (`unix ms × 1000`) whenever a topic has no
//!   state, so a `since` from before a restart or an expiry is never taken for a recent one.
//! - Errors (the socket stays open after each): `forbidden` (topic refused), `not_found` (the
//!   topic names nothing that exists, `HubConfig::topic_exists`), `rate_limited` (more
//!   subscribe messages than `subscribe_burst` at once or `subscribes_per_second` on average;
//!   the subscribe is ignored, retry later), `too_many_subscriptions`, `bad_request`
//!   (malformed message).
//! - Close codes: 4001 unauthorized ticket ([`Hub::reject_unauthorized`]) or the socket's
//!   session ended (signed out, password reset, refresh token reuse: [`Hub::disconnect`] on
//!   every node; the client may reconnect with a fresh ticket if it still has a session), 4008 slow consumer
//!   (its bounded send queue overflowed), 4009 heartbeat timeout (nothing received for
//!   `idle_timeout`; the server pings every `ping_interval`), 4029 too many connections from
//!   this client address (`max_connections_per_client`, default 50, [`Hub::accept_from`]; the
//!   upgrade completes and the socket is closed at once, so a browser can read the code and
//!   back off), 1001 server shutting down ([`Hub::shutdown`]). Past `max_connections` (all
//!   clients together) the upgrade is refused with HTTP 503 and `Retry-After`.
//!
//! # Presence and typing (ephemeral: never numbered, never in history)
//! - `{"type":"presence","topic","viewers","taskers"}` on topics `HubConfig::count_viewers`
//!   names (`task:{id}`): `viewers` = distinct signed-in users + anonymous sockets watching the
//!   topic on every node (at most `presence::ANONYMOUS_PER_ADDRESS` per client address on a node), `taskers` = the signed-in among them. One right after `subscribed`
//!   (and any replay), then at most one per `presence_interval` per topic, only on change. A
//!   resubscribe gets the current count, never a past one. In-process the count is the node's;
//!   with Redis each node reports its own count per topic into a hash (field per node, value
//!   `viewers:taskers:expires_ms`) every time it changes and every third of `presence_ttl`; a
//!   script drops expired fields, sums the rest and publishes a changed total on the topic's
//!   channel as `presence:viewers:taskers`, so a dead node's viewers vanish within about
//!   `presence_ttl` + a third of it.
//! - Client → server `{"type":"typing","task_id"}` (signed-in sockets only; at most one per
//!   `typing_interval` per socket is forwarded, the rest are dropped silently): the server's
//!   `HubConfig::typing_peer` names the other party, whose `user:{id}` sockets get
//!   `{"type":"typing","task_id","user_id"}` (through Redis as an `ephemeral:` message on that
//!   channel, never recorded). Not a party: `error` `forbidden`.
//! - Online and last seen: a signed-in socket may subscribe to `online:{user id}` when
//!   `HubConfig::online_access` allows it (the server: the other party of an assigned task, both
//!   sharing their online state); anyone else, an anonymous socket, or a party when either turned
//!   sharing off gets `error` `forbidden` (a refused re-subscribe also ends the earlier one). It
//!   gets `subscribed` (`seq` 0: nothing on it is numbered or replayed), at once
//!   `{"type":"presence","topic":"user:{id}","online":bool,"last_seen":RFC 3339|null}`, then a
//!   frame on each change, at most one per `presence_interval`. A user is online while any node
//!   holds a signed-in socket of theirs. In-process that is the node's own count; with Redis each
//!   node reports its count per user into a hash (field per node, `count:expires_ms`) when it goes
//!   from or to zero, refreshes its fields every third of `presence_ttl` and checks the users its
//!   sockets watch as often; a script drops expired fields, sums the rest and publishes
//!   `online:1` or `online:0:last_seen_ms` on the user's channel when they come or go, so a killed
//!   node's users go offline within about `presence_ttl` + a third. `last_seen` is when their
//!   last socket closed (for a node that died, its last report); the server stores it
//!   (`HubConfig::record_last_seen`, called when a user's last socket on a node closes) and
//!   answers it in `online_access`, so it outlives the nodes. [`Hub::hide_online`] (a user
//!   turned sharing off) tells the sockets watching them, and their own sockets watching anyone,
//!   `online:false, last_seen:null` once and then nothing, on every node (`online:hidden` on the
//!   user's `online:{id}` and `user:{id}` channels).
//!
//! # Memory per topic
//! A topic's state lives while a local socket watches it. Once unwatched: with Redis it is
//! dropped at once (history and sequence stay in Redis, so `since` recovery still works on
//! any node) and the node unsubscribes its channel; in-process it is kept for `since` recovery
//! until its history expires, but at most `max_idle_topics` unwatched topics are kept, the
//! longest unwatched forgotten first (a later `since` for those answers `recovered:false`).
//!
//! # Resync
//! When the Redis bus comes back after an outage, the node compares each watched topic's
//! sequence number in Redis with its own: a topic that did not move is left alone (its sockets
//! hear nothing); one that moved gets the events it missed, in order, when Redis's history still
//! holds every one of them, and otherwise a resync. When an event had to be delivered on one
//! node only because Redis was unreachable, every node resyncs the topic. A resync sends each
//! socket of the topic a fresh `{"type":"subscribed","topic","seq","recovered":false}`. Clients
//! already handle that message (refetch, then track `seq`), so resync needs no new message
//! type. Events delivered locally during an outage also break the topic's history in Redis,
//! so a later `since` from before the break answers `recovered:false`.
//!
//! A topic subscribed while the node could not read Redis (its subscriber reconnecting, or its
//! command connection down) is numbered by the node itself, from the time: possibly above the
//! numbers Redis gives the topic, and then every event from another node would look delivered
//! already. The node notes such topics and catches each up with Redis at the subscriber's next
//! heal tick (every second while it is on the bus): nothing moved, nothing is sent; otherwise the
//! missed events or a resync in Redis's numbers. A resync's number is where the topic goes on
//! from for the client, even when it is below the last one the client saw.
//!
//! Every `recovered:false` a client must act on (a resync, or a `since` the history cannot
//! serve) carries `refetch_after_ms`: on a topic more than 32 of the node's sockets watch, the
//! node hands out refetch slots at a steady rate across all its topics
//! (`HubConfig::resync_refetches_per_second`, `refetch_pacer.rs`), so the thousands of visitors
//! of the feed and the busy task pages refetch over several seconds instead of in one; smaller
//! topics get 0. Clients add their own jitter of up to 2 s on top.
//!
//! # Degraded live updates
//! While a node has lost its Redis subscriber connection, events published on other nodes do
//! not reach its sockets. It tells every socket `{"type":"status","live":"degraded"}` as soon
//! as it notices (and a socket opened meanwhile right after the upgrade), so the app polls over
//! REST instead of staying silently stale; once the subscriber is back it catches up the topics
//! that moved (missed events or resyncs, see "Resync"), then sends `{"type":"status","live":"ok"}`.
//!
//! # Serving
//! Serve the router with `TCP_NODELAY` on accepted sockets
//! (`listener.tap_io(|tcp| { let _ = tcp.set_nodelay(true); })`, `axum::serve::ListenerExt`):
//! without it Nagle's algorithm holds small event frames back for up to 40 ms.
//!
//! # Memory per idle connection
//! An idle subscribed socket costs the hub under 3 KB (`bench/ws-load/README.md`), because it
//! keeps only what it needs while nothing is in flight:
//! - tungstenite's default buffers (128 KiB each way) are replaced by a read buffer that grows
//!   to the largest frame the client sent (`read_buffer_size` 0) and a 4 KiB write target;
//! - the send queue is bounded by `send_queue_capacity` frames and allocated only while frames
//!   wait (`queue.rs`; a tokio channel would hold a 32-slot block per socket); frames are
//!   reference-counted, so a queued event costs a pointer, not a copy;
//! - no timer per socket: one task per node pings and closes by heartbeat (`heartbeat.rs`);
//! - the socket's task is small: the socket is split once and its loops borrow the halves, the
//!   write path and the handling of a client message are boxed while they run, and closing the
//!   queue is what stops the send loop (one wake-up to wait on, not two).

mod bus;
mod clients;
mod config;
mod connection;
mod handle;
mod heartbeat;
mod history;
mod hub;
mod online;
mod presence;
mod protocol;
mod queue;
mod rate;
mod refetch_pacer;
mod sockets;
mod stats;
mod topics;

pub use config::{
    Authorize, BusConfig, CountViewers, HubConfig, OnlineAccess, OnlineGrant, RecordLastSeen, TopicExists, TypingPeer,
    default_authorize,
};
pub use handle::SocketOwner;
pub use hub::Hub;
pub use sockets::Disconnect;
pub use stats::HubStats;

/// Close code: the server is shutting down ([`Hub::shutdown`]); reconnect.
pub const CLOSE_GOING_AWAY: u16 = 1001;
/// Close code: the ticket was missing, expired or already used, or the socket's session ended.
pub const CLOSE_UNAUTHORIZED: u16 = 4001;
/// Close code: the client did not read fast enough and its send queue overflowed.
pub const CLOSE_SLOW_CONSUMER: u16 = 4008;
/// Close code: nothing was received from the client for `idle_timeout`.
pub const CLOSE_HEARTBEAT_TIMEOUT: u16 = 4009;
/// Close code: the client address already has `max_connections_per_client` open sockets.
pub const CLOSE_TOO_MANY_CONNECTIONS: u16 = 4029;
