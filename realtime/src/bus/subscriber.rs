//! The node's single Redis subscriber connection. It subscribes to exactly the topics that
//! have local subscribers, reconnects with backoff, and after an outage catches up the topics
//! whose sequence number moved meanwhile (events published then never reached this node).

use std::{
    collections::HashSet,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering::Relaxed},
    },
    time::Duration,
};

use futures_util::StreamExt;
use redis::Msg;
use tokio::{
    sync::{mpsc, oneshot},
    time::{MissedTickBehavior, timeout},
};

use super::{
    control::{self, CONTROL_CHANNEL, Queued},
    keys::{CHANNEL_PREFIX, Keys, OP_TIMEOUT, Payload, channel, parse_payload},
    online::{HIDE_ONLINE, ONLINE_PREFIX, parse_state},
};
use crate::{
    online::{self, OnlineUsers},
    sockets::OpenSockets,
    stats::Stats,
    topics::Registry,
};

const MIN_BACKOFF: Duration = Duration::from_millis(100);
/// Sockets stay degraded until the subscriber is back: retry often (one connection attempt a
/// second per node costs a down Redis nothing). bench/soak measured 6.6 s from Redis being back to
/// every node ready with a 5 s ceiling.
const MAX_BACKOFF: Duration = Duration::from_secs(1);
const HEAL_PERIOD: Duration = Duration::from_secs(1);

pub(crate) enum Command {
    /// Subscribe (if not yet) and answer whether this node now receives the topic.
    Watch(String, oneshot::Sender<bool>),
    /// Unsubscribe, unless the topic has gained local subscribers meanwhile.
    Unwatch(String),
}

pub(super) struct Subscriber {
    pub client: redis::Client,
    pub keys: Keys,
    pub registry: Arc<Registry>,
    pub online: Arc<OnlineUsers>,
    pub stats: Arc<Stats>,
    pub sockets: Arc<OpenSockets>,
    pub commands: mpsc::UnboundedReceiver<Command>,
    pub connected: Arc<AtomicBool>,
    pub unreachable: Arc<AtomicBool>,
    pub diverged: Arc<Mutex<HashSet<String>>>,
    pub numbered_here: Arc<Mutex<HashSet<String>>>,
    pub queued_disconnects: Arc<Queued>,
}

pub(super) async fn run(mut s: Subscriber) {
    // While connected: the topics subscribed on Redis. While not: the topics to subscribe.
    let mut watched = HashSet::new();
    let mut backoff = MIN_BACKOFF;
    // Since when this node may have missed control messages: from its start until it first
    // hears the bus, and from each lost connection until the next.
    let mut off_bus_since = control::now_ms();
    loop {
        let pubsub = match timeout(OP_TIMEOUT, s.client.get_async_pubsub()).await {
            Ok(Ok(pubsub)) => pubsub,
            failure => {
                let reason = match failure {
                    Ok(Err(error)) => error.to_string(),
                    _ => "timed out".to_owned(),
                };
                tracing::warn!(reason, ?backoff, "redis bus: cannot connect the subscriber");
                s.unreachable.store(true, Relaxed);
                s.sockets.set_bus_live(false);
                if !s.wait_out(backoff, &mut watched).await {
                    return;
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        };
        let (mut sink, mut stream) = pubsub.split();
        if !matches!(timeout(OP_TIMEOUT, sink.subscribe(CONTROL_CHANNEL)).await, Ok(Ok(()))) {
            s.unreachable.store(true, Relaxed);
            s.sockets.set_bus_live(false);
            continue;
        }
        watched.retain(|topic: &String| s.is_watched(topic));
        if !watched.is_empty() {
            let channels: Vec<String> = watched.iter().map(|t| channel(t)).collect();
            if !matches!(timeout(OP_TIMEOUT, sink.subscribe(&channels)).await, Ok(Ok(()))) {
                s.unreachable.store(true, Relaxed);
                s.sockets.set_bus_live(false);
                continue;
            }
        }
        // Subscribed to the control channel, so nothing published from now on is missed: apply
        // what was published while this node was off the bus. (Before the resyncs, which must
        // come last: clients refetch on them, and this node publishes through Redis from then.)
        match control::published_since(&s.keys.conn, off_bus_since).await {
            Some(missed) => {
                for message in missed {
                    s.sockets.disconnect(&message.target, message.code);
                }
            }
            None => {
                tracing::warn!(?backoff, "redis bus: cannot read the disconnects missed yet; retrying");
                if !s.wait_out(backoff, &mut watched).await {
                    return;
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        }
        // Topics watched before this connection (an earlier one, or subscriptions accepted
        // while Redis was unreachable) may have missed events: each whose sequence number moved
        // in Redis gets them (or a resync); the others are left alone. The command connection
        // may not be back yet when the subscriber is: then stay degraded and try again, rather
        // than declare live updates ok without catching up.
        if !watched.is_empty() {
            tracing::info!(topics = watched.len(), "redis bus connected; catching up local sockets");
            let mut caught_up = true;
            for topic in &watched {
                if let Some(user) = online::watched_user(topic) {
                    // Checked on the next tick of the online reports.
                    s.online.mark_dirty(user);
                    continue;
                }
                if !s.keys.catch_up(&s.registry, topic).await {
                    caught_up = false;
                    break;
                }
            }
            if !caught_up {
                tracing::warn!(?backoff, "redis bus: cannot read sequence numbers to catch up yet; retrying");
                if !s.wait_out(backoff, &mut watched).await {
                    return;
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        }
        s.connected.store(true, Relaxed);
        s.unreachable.store(false, Relaxed);
        backoff = MIN_BACKOFF;
        s.sockets.set_bus_live(true);

        let mut heal = tokio::time::interval(HEAL_PERIOD);
        heal.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                message = stream.next() => match message {
                    Some(message) => s.on_message(&message),
                    None => break,
                },
                command = s.commands.recv() => match command {
                    None => return,
                    Some(Command::Watch(topic, ack)) => {
                        let subscribed = watched.contains(&topic) || {
                            let result = timeout(OP_TIMEOUT, sink.subscribe(channel(&topic))).await;
                            watched.insert(topic);
                            matches!(result, Ok(Ok(())))
                        };
                        let _ = ack.send(subscribed);
                        if !subscribed {
                            break;
                        }
                    }
                    Some(Command::Unwatch(topic)) => {
                        if !s.is_watched(&topic) && watched.remove(&topic) {
                            let result = timeout(OP_TIMEOUT, sink.unsubscribe(channel(&topic))).await;
                            if !matches!(result, Ok(Ok(()))) {
                                break;
                            }
                        }
                    }
                },
                _ = heal.tick() => s.heal().await,
            }
        }
        s.connected.store(false, Relaxed);
        s.unreachable.store(true, Relaxed);
        s.sockets.set_bus_live(false);
        off_bus_since = control::now_ms();
        tracing::warn!("redis bus: subscriber connection lost; reconnecting");
    }
}

impl Subscriber {
    /// Whether a local socket still wants the topic's channel.
    fn is_watched(&self, topic: &str) -> bool {
        match online::watched_user(topic) {
            Some(user) => self.online.is_watched(user),
            None => self.registry.is_watched(topic),
        }
    }

    fn on_message(&self, message: &Msg) {
        if message.get_channel_name() == CONTROL_CHANNEL {
            match control::parse(message.get_payload_bytes()) {
                Some(control) => {
                    self.sockets.disconnect(&control.target, control.code);
                }
                None => tracing::warn!("redis bus: unreadable control message"),
            }
            return;
        }
        let Some(topic) = message.get_channel_name().strip_prefix(CHANNEL_PREFIX) else {
            return;
        };
        if message.get_payload_bytes() == HIDE_ONLINE {
            if let Some(user) = online::watched_user(topic).or_else(|| topic.strip_prefix("user:")) {
                self.online.hide(user, &self.stats);
            }
            return;
        }
        if let Some(user) = online::watched_user(topic) {
            match message.get_payload_bytes().strip_prefix(ONLINE_PREFIX).and_then(parse_state) {
                Some(state) => self.online.set_state(user, state),
                None => tracing::warn!(topic, "redis bus: unreadable online message"),
            }
            return;
        }
        match parse_payload(message.get_payload_bytes()) {
            Some(Payload::Event(entry)) => self.registry.deliver_remote(topic, entry.seq, entry.at_ms, entry.frame),
            Some(Payload::Resync(current)) => self.registry.resync(topic, current),
            Some(Payload::Presence(total)) => self.registry.set_presence_total(topic, total),
            Some(Payload::Ephemeral(frame)) => self.registry.deliver_ephemeral(topic, &frame),
            None => tracing::warn!(topic, "redis bus: unreadable message"),
        }
    }

    /// Waits out a backoff while noting interest changes; false when the hub is gone.
    async fn wait_out(&mut self, backoff: Duration, watched: &mut HashSet<String>) -> bool {
        let deadline = tokio::time::sleep(backoff);
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                () = &mut deadline => return true,
                command = self.commands.recv() => match command {
                    None => return false,
                    Some(Command::Watch(topic, ack)) => {
                        watched.insert(topic);
                        let _ = ack.send(false);
                    }
                    Some(Command::Unwatch(topic)) => {
                        if !self.is_watched(&topic) {
                            watched.remove(&topic);
                        }
                    }
                },
            }
        }
    }

    /// Announces a resync for topics whose events were delivered here only, catches up the topics
    /// subscribed without Redis's sequence number, and publishes the disconnects Redis did not take.
    async fn heal(&self) {
        self.queued_disconnects.flush(&self.keys.conn).await;
        let numbered_here: Vec<String> = {
            let set = self.numbered_here.lock().unwrap_or_else(|p| p.into_inner());
            set.iter().cloned().collect()
        };
        for topic in numbered_here {
            if !self.keys.catch_up(&self.registry, &topic).await {
                return;
            }
            self.numbered_here.lock().unwrap_or_else(|p| p.into_inner()).remove(&topic);
        }
        let diverged: Vec<String> = {
            let set = self.diverged.lock().unwrap_or_else(|p| p.into_inner());
            set.iter().cloned().collect()
        };
        for topic in diverged {
            if !self.keys.announce_resync(&topic).await {
                return;
            }
            self.diverged.lock().unwrap_or_else(|p| p.into_inner()).remove(&topic);
        }
    }
}
