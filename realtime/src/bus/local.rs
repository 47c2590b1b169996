//! The in-process bus: the registry is the whole story; topics are kept for their history
//! after their last subscriber leaves, and swept once it has expired. Viewer counts and who is
//! online are this node's own.

use std::{sync::Arc, time::Duration};

use tokio::{task::JoinHandle, time::MissedTickBehavior};

use crate::{online::OnlineUsers, stats::Stats, topics::Registry};

pub(super) fn spawn_sweeper(registry: Arc<Registry>, history_max_age: Duration) -> JoinHandle<()> {
    let period = (history_max_age / 2).clamp(Duration::from_secs(1), Duration::from_secs(60));
    tokio::spawn(async move {
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            registry.sweep();
        }
    })
}

/// Every `period`: the topics whose count changed tell their sockets the new one, and the
/// watchers of users who came or went hear so.
pub(super) fn spawn_presence(
    registry: Arc<Registry>,
    online: Arc<OnlineUsers>,
    stats: Arc<Stats>,
    period: Duration,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            for topic in registry.presence.take_dirty() {
                registry.set_presence_total(&topic, registry.local_counts(&topic));
            }
            registry.flush_presence();
            for user in online.take_dirty() {
                online.set_state(&user, online.local_state(&user));
            }
            online.flush(&stats);
        }
    })
}
