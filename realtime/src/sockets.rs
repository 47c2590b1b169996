//! Every open socket of this node, and whether live updates from the other nodes reach them:
//! when the node loses the cross-node bus it tells each socket `{"type":"status","live":
//! "degraded"}` at once (events published on other nodes stop arriving; the app polls what is on
//! screen), and `"ok"` when the bus is back (after the resyncs). A socket opened while degraded
//! hears so first. The server can close the sockets of a session or of a user on every node
//! ([`crate::Hub::disconnect`]): each socket knows whom it belongs to.

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use dashmap::DashMap;

use crate::{
    CLOSE_HEARTBEAT_TIMEOUT,
    handle::{ConnHandle, SocketOwner},
    protocol,
    queue::Outbound,
    stats::Stats,
};

/// Which sockets [`crate::Hub::disconnect`] closes, on every node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Disconnect {
    /// The sockets opened with a ticket of this session (signed out, revoked).
    Session(String),
    /// Every socket of this user, whatever its session.
    User(String),
}

impl Disconnect {
    fn matches(&self, owner: Option<&SocketOwner>) -> bool {
        match (self, owner) {
            (Disconnect::Session(id), Some(owner)) => owner.session_id.as_deref() == Some(id.as_str()),
            (Disconnect::User(id), Some(owner)) => owner.user_id == *id,
            (_, None) => false,
        }
    }
}

pub(crate) struct OpenSockets {
    open: DashMap<u64, Arc<ConnHandle>>,
    /// The socket clock's zero: sockets keep heartbeat times as milliseconds since it.
    clock: Instant,
    /// Held while a status change is announced, so a socket registering meanwhile cannot
    /// receive the old status after the new one.
    degraded: Mutex<bool>,
    stats: Arc<Stats>,
}

impl OpenSockets {
    pub fn new(stats: Arc<Stats>) -> Self {
        Self { open: DashMap::new(), clock: Instant::now(), degraded: Mutex::new(false), stats }
    }

    /// Milliseconds on the socket clock.
    pub fn now_ms(&self) -> u64 {
        self.clock.elapsed().as_millis() as u64
    }

    /// One heartbeat round: closes the sockets silent for `close_after` with 4009 and queues a
    /// ping for each socket last pinged `ping_every` ago.
    pub fn sweep_heartbeats(&self, ping_every: Duration, close_after: Duration) {
        let now = self.now_ms();
        let (ping_every, close_after) = (ping_every.as_millis() as u64, close_after.as_millis() as u64);
        for conn in self.open.iter() {
            if conn.silent_ms(now) >= close_after {
                if conn.close(CLOSE_HEARTBEAT_TIMEOUT) {
                    self.stats.closed_heartbeat();
                }
            } else if conn.ping_due(now, ping_every) {
                conn.deliver(Outbound::Ping, &self.stats);
            }
        }
    }

    pub fn add(&self, conn: Arc<ConnHandle>) {
        let degraded = self.degraded.lock().unwrap_or_else(|p| p.into_inner());
        self.open.insert(conn.id, conn.clone());
        if *degraded {
            conn.deliver(Outbound::Frame(protocol::status(false)), &self.stats);
        }
    }

    pub fn remove(&self, id: u64) {
        self.open.remove(&id);
    }

    pub fn close_all(&self, code: u16) {
        for conn in self.open.iter() {
            conn.close(code);
        }
    }

    /// Closes the matching sockets with `code`; how many were open.
    pub fn disconnect(&self, target: &Disconnect, code: u16) -> usize {
        let mut closed = 0;
        for conn in self.open.iter() {
            if target.matches(conn.owner.as_ref()) {
                conn.close(code);
                closed += 1;
            }
        }
        closed
    }

    /// Records whether the bus carries events between nodes; tells every socket on a change.
    pub fn set_bus_live(&self, live: bool) {
        let mut degraded = self.degraded.lock().unwrap_or_else(|p| p.into_inner());
        if *degraded != live {
            return;
        }
        *degraded = !live;
        if live {
            tracing::info!("realtime bus is back; telling sockets live updates are ok");
        } else {
            tracing::warn!(sockets = self.open.len(), "realtime bus lost; telling sockets live updates are degraded");
        }
        let frame = protocol::status(live);
        for conn in self.open.iter() {
            conn.deliver(Outbound::Frame(frame.clone()), &self.stats);
        }
    }

    pub fn is_degraded(&self) -> bool {
        *self.degraded.lock().unwrap_or_else(|p| p.into_inner())
    }
}
