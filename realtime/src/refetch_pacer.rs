//! When a node gets the bus back it may tell thousands of sockets at once to refetch a topic
//! (`subscribed` with `recovered:false`): the feed and every busy task page, for every watcher
//! on the node. Each such frame names when its client should refetch (`refetch_after_ms`), one
//! slot after another at a steady rate for the whole node, across topics, so the node meets a
//! queue it can serve instead of every refetch in the same second. A lone refetch is due at once.

use std::{
    sync::atomic::{AtomicU64, Ordering::Relaxed},
    time::{Duration, Instant},
};

/// No client is asked to wait longer than this: past it, slots wrap around the window, which
/// then holds more than the rate (staleness stays bounded on a node with a huge herd).
pub(crate) const MAX_REFETCH_DELAY: Duration = Duration::from_secs(30);

#[derive(Debug)]
pub(crate) struct RefetchPacer {
    started: Instant,
    /// Microseconds between two slots (1 s / rate).
    slot_us: u64,
    /// The next free slot, in microseconds since `started`.
    next_free_us: AtomicU64,
}

impl RefetchPacer {
    pub fn new(refetches_per_second: f64) -> Self {
        let slot_us = (1_000_000.0 / refetches_per_second.max(1.0)).round() as u64;
        Self { started: Instant::now(), slot_us, next_free_us: AtomicU64::new(0) }
    }

    /// Takes the next slot: how long its client should wait before refetching, in milliseconds.
    pub fn next_delay_ms(&self) -> u64 {
        let now = self.started.elapsed().as_micros() as u64;
        let mut slot = 0;
        let _ = self.next_free_us.fetch_update(Relaxed, Relaxed, |next_free| {
            slot = next_free.max(now);
            Some(slot + self.slot_us)
        });
        let max = MAX_REFETCH_DELAY.as_micros() as u64;
        ((slot - now) % max) / 1000
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_herd_is_spread_at_the_rate_and_a_lone_refetch_is_due_at_once() {
        let pacer = RefetchPacer::new(200.0);
        let delays: Vec<u64> = (0..1000).map(|_| pacer.next_delay_ms()).collect();
        assert!(delays[0] <= 1, "the first refetch waits for nothing: {}", delays[0]);
        // 1,000 refetches at 200 a second take five seconds, 5 ms apart.
        let last = *delays.last().unwrap();
        assert!((4_900..=5_000).contains(&last), "the last slot is ~5 s away: {last}");
        assert!(delays.windows(2).all(|pair| pair[1] >= pair[0]), "slots are handed out in order");
        let in_first_second = delays.iter().filter(|delay| **delay < 1_000).count();
        assert!((195..=205).contains(&in_first_second), "about 200 in each second: {in_first_second}");

        // Once the herd has been served, the next one starts again from now.
        let idle = RefetchPacer::new(1_000_000.0);
        idle.next_delay_ms();
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(idle.next_delay_ms(), 0);
    }

    #[test]
    fn no_client_waits_longer_than_the_bound() {
        let pacer = RefetchPacer::new(10.0);
        let delays: Vec<u64> = (0..1_000).map(|_| pacer.next_delay_ms()).collect();
        let max = MAX_REFETCH_DELAY.as_millis() as u64;
        assert!(delays.iter().all(|delay| *delay < max));
        // 300 slots of 100 ms fill the 30 s window; the next ones wrap around to its start.
        assert!(delays[299] > 29_000, "{}", delays[299]);
        assert!(delays[301] < 200, "{}", delays[301]);
    }
}
