//! How events reach the other nodes: not at all (in-process) or through Redis pub/sub.

mod control;
mod keys;
mod local;
mod online;
mod presence;
mod redis;
mod report_loop;
mod subscriber;

use std::sync::Arc;

use tokio::task::JoinHandle;

pub(crate) use self::redis::RedisBus;
use crate::{BusConfig, HubConfig, online::OnlineUsers, sockets::OpenSockets, stats::Stats, topics::Registry};

pub(crate) enum Bus {
    Local,
    Redis(RedisBus),
}

pub(crate) async fn start(
    config: BusConfig,
    hub: &HubConfig,
    registry: Arc<Registry>,
    sockets: Arc<OpenSockets>,
    online: Arc<OnlineUsers>,
    stats: Arc<Stats>,
) -> anyhow::Result<(Bus, Vec<JoinHandle<()>>)> {
    match config {
        BusConfig::Local => {
            let sweeper = local::spawn_sweeper(registry.clone(), hub.history_max_age);
            let presence = local::spawn_presence(registry, online, stats, hub.presence_interval);
            Ok((Bus::Local, vec![sweeper, presence]))
        }
        BusConfig::Redis { url } => {
            let (bus, tasks) = RedisBus::start(&url, hub, registry, sockets, online, stats).await?;
            Ok((Bus::Redis(bus), tasks))
        }
    }
}
