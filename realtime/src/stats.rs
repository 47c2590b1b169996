//! Counters of the hub, kept as atomics for `Hub::stats` and mirrored to the `metrics` facade
//! (the server installs a Prometheus recorder).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use metrics::{counter, gauge};

/// A snapshot of the hub's counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HubStats {
    /// Open sockets.
    pub connections: u64,
    /// (socket, topic) pairs.
    pub subscriptions: u64,
    /// Events published through this hub.
    pub published: u64,
    /// Frames handed to socket queues.
    pub delivered: u64,
    /// Frames not delivered because a socket queue was full or closed.
    pub dropped: u64,
    pub slow_consumer_closes: u64,
    pub heartbeat_closes: u64,
    /// Upgrade requests refused because `max_connections` was reached.
    pub refused_connections: u64,
    /// Sockets closed at once because their client address had `max_connections_per_client`.
    pub refused_per_client: u64,
    /// Subscribe messages answered `rate_limited`.
    pub rate_limited_subscribes: u64,
}

#[derive(Debug, Default)]
pub(crate) struct Stats {
    connections: AtomicU64,
    subscriptions: AtomicU64,
    published: AtomicU64,
    delivered: AtomicU64,
    dropped: AtomicU64,
    slow_consumer_closes: AtomicU64,
    heartbeat_closes: AtomicU64,
    refused_connections: AtomicU64,
    refused_per_client: AtomicU64,
    rate_limited_subscribes: AtomicU64,
}

impl Stats {
    pub fn snapshot(&self) -> HubStats {
        HubStats {
            connections: self.connections.load(Relaxed),
            subscriptions: self.subscriptions.load(Relaxed),
            published: self.published.load(Relaxed),
            delivered: self.delivered.load(Relaxed),
            dropped: self.dropped.load(Relaxed),
            slow_consumer_closes: self.slow_consumer_closes.load(Relaxed),
            heartbeat_closes: self.heartbeat_closes.load(Relaxed),
            refused_connections: self.refused_connections.load(Relaxed),
            refused_per_client: self.refused_per_client.load(Relaxed),
            rate_limited_subscribes: self.rate_limited_subscribes.load(Relaxed),
        }
    }

    pub fn connection_opened(&self) {
        self.connections.fetch_add(1, Relaxed);
        gauge!("realtime_connections").increment(1.0);
    }

    pub fn connection_closed(&self) {
        self.connections.fetch_sub(1, Relaxed);
        gauge!("realtime_connections").decrement(1.0);
    }

    pub fn connection_refused(&self) {
        self.refused_connections.fetch_add(1, Relaxed);
        counter!("realtime_connections_refused_total").increment(1);
    }

    pub fn refused_per_client(&self) {
        self.refused_per_client.fetch_add(1, Relaxed);
        counter!("realtime_connections_refused_per_client_total").increment(1);
    }

    pub fn subscribe_rate_limited(&self) {
        self.rate_limited_subscribes.fetch_add(1, Relaxed);
        counter!("realtime_subscribes_rate_limited_total").increment(1);
    }

    pub fn subscribed(&self) {
        self.subscriptions.fetch_add(1, Relaxed);
        gauge!("realtime_subscriptions").increment(1.0);
    }

    pub fn unsubscribed(&self) {
        self.subscriptions.fetch_sub(1, Relaxed);
        gauge!("realtime_subscriptions").decrement(1.0);
    }

    pub fn published(&self, events: u64) {
        self.published.fetch_add(events, Relaxed);
        counter!("realtime_events_published_total").increment(events);
    }

    pub fn fanned_out(&self, delivered: u64, dropped: u64) {
        if delivered > 0 {
            self.delivered.fetch_add(delivered, Relaxed);
            counter!("realtime_events_delivered_total").increment(delivered);
        }
        if dropped > 0 {
            self.dropped.fetch_add(dropped, Relaxed);
            counter!("realtime_events_dropped_total").increment(dropped);
        }
    }

    pub fn closed_slow_consumer(&self) {
        self.slow_consumer_closes.fetch_add(1, Relaxed);
        counter!("realtime_slow_consumer_closes_total").increment(1);
    }

    pub fn closed_heartbeat(&self) {
        self.heartbeat_closes.fetch_add(1, Relaxed);
        counter!("realtime_heartbeat_closes_total").increment(1);
    }
}
