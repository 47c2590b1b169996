//! The loop both cross-node reports share (viewer counts per topic, `presence.rs`; who is
//! online, `online.rs`): every `period` the keys whose count changed here; every third of the
//! fields' `ttl` every key too, so this node's fields never expire while it lives; then each key
//! reported while Redis answers ([`Pass`]), and this node's own view for the rest of the pass once
//! it does not (those keys stay due and are reported again when it is back).

use std::time::Duration;

use tokio::time::{Interval, MissedTickBehavior};

/// The reports' clock.
pub(super) struct ReportTicks {
    interval: Interval,
    ticks: u64,
    refresh_every: u64,
}

impl ReportTicks {
    pub(super) fn new(period: Duration, ttl: Duration) -> Self {
        let refresh_every = ((ttl / 3).as_millis() / period.as_millis().max(1)).max(1) as u64;
        let mut interval = tokio::time::interval(period);
        interval.set_missed_tick_behavior(MissedTickBehavior::Delay);
        Self { interval, ticks: 0, refresh_every }
    }

    /// Waits for the next tick; true when it is a refresh of every key.
    pub(super) async fn next(&mut self) -> bool {
        self.interval.tick().await;
        self.ticks += 1;
        self.ticks.is_multiple_of(self.refresh_every)
    }
}

/// `keys` with `more` added, each key once.
pub(super) fn add_all(keys: &mut Vec<String>, more: impl IntoIterator<Item = String>) {
    keys.extend(more);
    keys.sort_unstable();
    keys.dedup();
}

/// One pass of reports: Redis is asked until it first fails to answer, and not again in the
/// same pass (the rest settle on this node's own view).
pub(super) struct Pass {
    reachable: bool,
}

impl Pass {
    pub(super) fn new() -> Self {
        Self { reachable: true }
    }

    /// What `report` answers, while Redis answers.
    pub(super) async fn ask<T>(&mut self, report: impl Future<Output = Option<T>>) -> Option<T> {
        if !self.reachable {
            return None;
        }
        let answer = report.await;
        self.reachable = answer.is_some();
        answer
    }
}
