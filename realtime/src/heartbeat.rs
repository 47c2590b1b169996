//! Heartbeats for every socket of the node from one task. Each round pings the sockets last
//! pinged `ping_interval` ago and closes with 4009 those silent for `idle_timeout` (a pong
//! counts as hearing from the client). A timer per socket did the same, but every idle socket
//! carried it (a tokio `Sleep` is 112 bytes, plus its future's share): one sweep over the open
//! sockets costs a few atomic reads per socket per round instead.

use std::{sync::Arc, time::Duration};

use tokio::task::JoinHandle;

use crate::sockets::OpenSockets;

/// A round at least every second, and four per `ping_interval` (or `idle_timeout`) when they are
/// shorter, so a ping or a close is at most a quarter interval late.
fn round_every(ping_interval: Duration, idle_timeout: Duration) -> Duration {
    (ping_interval.min(idle_timeout) / 4).clamp(Duration::from_millis(10), Duration::from_secs(1))
}

pub(crate) fn start(sockets: Arc<OpenSockets>, ping_interval: Duration, idle_timeout: Duration) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut rounds = tokio::time::interval(round_every(ping_interval, idle_timeout));
        rounds.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            rounds.tick().await;
            sockets.sweep_heartbeats(ping_interval, idle_timeout);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_are_a_quarter_interval_between_10_ms_and_a_second() {
        assert_eq!(round_every(Duration::from_secs(25), Duration::from_secs(60)), Duration::from_secs(1));
        assert_eq!(round_every(Duration::from_millis(100), Duration::from_millis(400)), Duration::from_millis(25));
        assert_eq!(round_every(Duration::from_millis(8), Duration::from_millis(400)), Duration::from_millis(10));
    }
}
