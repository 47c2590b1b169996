//! A socket as the rest of the hub holds it ([`ConnHandle`]: its send queue, its owner, its
//! heartbeat times), shared by the hub, the topics, the open-socket list, the online watchers
//! and the socket's own loops (`connection.rs`), so none of them reaches into another for it.

use std::{
    net::IpAddr,
    sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed},
};

use crate::{
    CLOSE_SLOW_CONSUMER,
    queue::{Outbound, Pushed, SendQueue},
    stats::Stats,
};

/// Whom a signed-in socket belongs to: the user its ticket was issued to, and the session
/// (sign-in) that asked for the ticket, when the server names one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SocketOwner {
    pub user_id: String,
    pub session_id: Option<String>,
}

/// What the rest of the hub holds of a socket: its queue and a way to close it (closing the
/// queue is what stops the send loop, so an idle socket waits on one notification, not two).
#[derive(Debug)]
pub(crate) struct ConnHandle {
    pub id: u64,
    pub owner: Option<SocketOwner>,
    /// The client's address, when the socket was accepted with one (`Hub::accept_from`).
    pub client: Option<IpAddr>,
    /// Drained by the socket's send loop (`connection.rs`).
    pub(crate) queue: SendQueue,
    close_code: AtomicU16,
    /// When the client last sent anything and when it was last pinged, in milliseconds of the
    /// node's socket clock ([`crate::sockets::OpenSockets::now_ms`]): the node's heartbeat sweep
    /// reads them (`heartbeat.rs`), so an idle socket carries no timer of its own.
    heard_at_ms: AtomicU64,
    pinged_at_ms: AtomicU64,
}

impl ConnHandle {
    /// A socket that may have `queue_capacity` frames waiting to be written.
    pub(crate) fn new(
        id: u64,
        owner: Option<SocketOwner>,
        client: Option<IpAddr>,
        queue_capacity: usize,
        now_ms: u64,
    ) -> Self {
        Self {
            id,
            owner,
            client,
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

    /// The code the socket was asked to close with (0: none yet).
    pub fn close_code(&self) -> u16 {
        self.close_code.load(Relaxed)
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
