//! Topic registry: per topic, the last sequence number, recent history and the local
//! subscribers. One std mutex per topic makes "assign seq, record, fan out" and "replay, then
//! join" atomic with respect to each other, so a subscriber never misses or repeats an event
//! and always sees them in order. Nothing under it awaits.

use std::{
    collections::{HashMap, VecDeque},
    sync::{
        Arc, Mutex, MutexGuard,
        atomic::{AtomicU64, Ordering::Relaxed},
    },
    time::Duration,
};

use axum::extract::ws::Utf8Bytes;
use dashmap::DashMap;

use crate::{
    handle::ConnHandle,
    history::{self, Entry, History},
    presence::{self, Counts, PresenceQueues, TopicPresence, Viewer},
    protocol::{self, EventTemplate},
    queue::Outbound,
    refetch_pacer::RefetchPacer,
    stats::Stats,
};

/// A topic's state as stored in Redis, read just before joining it.
#[derive(Debug, Default)]
pub(crate) struct RemoteSnapshot {
    pub current: u64,
    pub entries: Vec<Entry>,
}

#[derive(Debug)]
struct Subscriber {
    conn: Arc<ConnHandle>,
    /// Events up to this sequence number reached the subscriber through its replay.
    after_seq: u64,
}

#[derive(Debug, Default)]
struct TopicState {
    last_seq: u64,
    history: History,
    subscribers: HashMap<u64, Subscriber>,
    /// Subscriptions under way (waiting on Redis): the topic must stay of interest meanwhile.
    pending: usize,
    /// Last publish or departure: an unwatched topic is kept this long past it, so a client
    /// that missed nothing can still resubscribe with `recovered:true`.
    active_ms: u64,
    /// Its latest place in the registry's idle queue (0: never queued).
    idle_stamp: u64,
    /// Viewer counts, for counted topics (`HubConfig::count_viewers`) once watched.
    presence: Option<Box<TopicPresence>>,
}

impl TopicState {
    fn is_unwatched(&self) -> bool {
        self.subscribers.is_empty() && self.pending == 0
    }

    fn fan_out(&self, seq: u64, frame: &Utf8Bytes, stats: &Stats) {
        let (mut delivered, mut dropped) = (0, 0);
        for sub in self.subscribers.values() {
            if seq <= sub.after_seq {
                continue;
            }
            if sub.conn.deliver(Outbound::Frame(frame.clone()), stats) {
                delivered += 1;
            } else {
                dropped += 1;
            }
        }
        stats.fanned_out(delivered, dropped);
    }
}

pub(crate) struct Registry {
    topics: DashMap<String, Mutex<TopicState>>,
    history_len: usize,
    history_max_age: Duration,
    /// Unwatched topics, longest unwatched first, as `(topic, stamp)`. An entry whose stamp is
    /// no longer the topic's `idle_stamp` is stale (watched again since, or already gone).
    /// Every unwatched topic has its latest entry here, so keeping the queue at most
    /// `max_idle` long keeps at most `max_idle` unwatched topics.
    idle: Mutex<VecDeque<(String, u64)>>,
    max_idle: usize,
    next_stamp: AtomicU64,
    stats: Arc<Stats>,
    pub(crate) presence: PresenceQueues,
    refetches: RefetchPacer,
}

/// Topics with more subscribers than this on a node are a herd when they must be refetched: their
/// refetches are paced ([`RefetchPacer`]). Smaller ones (someone's own `user:` topic, the parties
/// of an assigned task, a quiet task page) refetch at once, as before.
pub(crate) const PACED_ABOVE: usize = 32;

fn lock(state: &Mutex<TopicState>) -> MutexGuard<'_, TopicState> {
    state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Registry {
    pub fn new(history_len: usize, history_max_age: Duration, max_idle: usize, stats: Arc<Stats>) -> Self {
        Self {
            topics: DashMap::new(),
            history_len,
            history_max_age,
            idle: Mutex::default(),
            max_idle,
            next_stamp: AtomicU64::new(1),
            stats,
            presence: PresenceQueues::new(Arc::new(|_| false)),
            refetches: RefetchPacer::new(crate::HubConfig::default().resync_refetches_per_second),
        }
    }

    /// Paces the refetches that resyncs and unrecoverable gaps ask for at this rate (per node).
    pub fn with_refetch_rate(mut self, refetches_per_second: f64) -> Self {
        self.refetches = RefetchPacer::new(refetches_per_second);
        self
    }

    /// Counts the viewers of the topics `counted` names.
    pub fn with_counted(mut self, counted: crate::CountViewers) -> Self {
        self.presence = PresenceQueues::new(counted);
        self
    }

    /// Queues an unwatched topic (under its lock) for [`Registry::evict_idle`].
    fn note_idle(&self, topic: &str, state: &mut TopicState) {
        state.idle_stamp = self.next_stamp.fetch_add(1, Relaxed);
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).push_back((topic.to_owned(), state.idle_stamp));
    }

    /// Forgets the longest-unwatched topics past `max_idle`. Call with no topic locked.
    fn evict_idle(&self) {
        loop {
            let (topic, stamp) = {
                let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
                if idle.len() <= self.max_idle {
                    return;
                }
                match idle.pop_front() {
                    Some(entry) => entry,
                    None => return,
                }
            };
            self.topics.remove_if(&topic, |_, state| {
                let state = lock(state);
                state.is_unwatched() && state.idle_stamp == stamp
            });
        }
    }

    fn oldest_ms(&self) -> u64 {
        protocol::now_ms().saturating_sub(self.history_max_age.as_millis() as u64)
    }

    fn with_topic<R>(&self, topic: &str, f: impl FnOnce(&mut TopicState) -> R) -> R {
        if let Some(state) = self.topics.get(topic) {
            return f(&mut lock(&state));
        }
        let state = self.topics.entry(topic.to_owned()).or_default();
        f(&mut lock(&state))
    }

    /// Assigns the next sequence number here (in-process bus, or Redis unreachable) and
    /// delivers. With `only_if_watched`, a topic without local subscribers is left alone.
    pub fn publish_local(&self, topic: &str, template: &EventTemplate, only_if_watched: bool) {
        let oldest = self.oldest_ms();
        let publish = |state: &mut TopicState| {
            let seq = if state.last_seq == 0 { protocol::sequence_base() + 1 } else { state.last_seq + 1 };
            self.record_and_fan_out(state, seq, template.at_ms, template.frame(seq), oldest);
        };
        if only_if_watched {
            if let Some(state) = self.topics.get(topic) {
                publish(&mut lock(&state));
            }
        } else {
            self.with_topic(topic, |state| {
                publish(state);
                // Queued once, when it is created unwatched; a topic that lost its last
                // subscriber was queued then. Re-queueing on every publish would fill the
                // queue with stale entries and evict other topics' history early.
                if state.is_unwatched() && state.idle_stamp == 0 {
                    self.note_idle(topic, state);
                }
            });
            self.evict_idle();
        }
    }

    /// An event that came through the bus with its sequence number already assigned.
    pub fn deliver_remote(&self, topic: &str, seq: u64, at_ms: u64, frame: Utf8Bytes) {
        let oldest = self.oldest_ms();
        if let Some(state) = self.topics.get(topic) {
            let state = &mut lock(&state);
            if seq > state.last_seq {
                self.record_and_fan_out(state, seq, at_ms, frame, oldest);
            }
        }
    }

    fn record_and_fan_out(&self, state: &mut TopicState, seq: u64, at_ms: u64, frame: Utf8Bytes, oldest: u64) {
        state.last_seq = seq;
        state.active_ms = at_ms;
        state.fan_out(seq, &frame, &self.stats);
        state.history.push(Entry { seq, at_ms, frame }, self.history_len, oldest);
    }

    /// Keeps the topic of interest while a subscription waits on Redis.
    pub fn begin_subscribe(&self, topic: &str) {
        self.with_topic(topic, |state| state.pending += 1);
    }

    /// Joins `conn` to the topic: queues `subscribed` and the replay as one unit, then adds the
    /// subscriber, all under the topic lock. `remote` is the Redis view (None: use local state).
    /// `pending` says whether `begin_subscribe` was called. Returns false when the socket's
    /// queue is full (it is then being closed as a slow consumer).
    pub fn subscribe(
        &self,
        topic: &str,
        conn: &Arc<ConnHandle>,
        since: Option<u64>,
        remote: Option<RemoteSnapshot>,
        pending: bool,
    ) -> bool {
        let oldest = self.oldest_ms();
        self.with_topic(topic, |state| {
            if pending {
                state.pending = state.pending.saturating_sub(1);
            }
            state.history.expire(oldest);
            if state.last_seq == 0 && remote.is_none() {
                state.last_seq = protocol::sequence_base();
            }
            let (current, replayed) = match &remote {
                Some(remote) => {
                    let current = remote.current.max(state.last_seq);
                    let local_after = state.history.after(remote.current);
                    let candidates = remote.entries.iter().chain(local_after);
                    (current, since.and_then(|s| history::replay(s, current, candidates, oldest)))
                }
                None => {
                    let current = state.last_seq;
                    let candidates = since.map(|s| state.history.after(s));
                    let replayed = since.zip(candidates).and_then(|(s, c)| history::replay(s, current, c, oldest));
                    (current, replayed)
                }
            };
            if remote.is_some() && state.last_seq < current {
                state.last_seq = current;
            }
            let recovered = replayed.is_some();
            // A client that had the topic (`since`) and cannot be caught up refetches it; one that
            // did not has just fetched it.
            let ack = match since {
                Some(_) if !recovered => protocol::subscribed_refetch(topic, current, self.refetch_delay_ms(state)),
                _ => protocol::subscribed(topic, current, recovered),
            };
            let mut frames = vec![ack];
            frames.extend(replayed.unwrap_or_default());
            let newcomer = !state.subscribers.contains_key(&conn.id);
            let viewer = Viewer::of(conn);
            if (self.presence.counted)(topic) {
                let presence = state.presence.get_or_insert_default();
                if newcomer {
                    presence.join(viewer);
                    self.presence.mark_dirty(topic);
                }
                frames.push(presence::frame(topic, presence.for_newcomer()));
            }
            if !conn.deliver(Outbound::Batch(frames), &self.stats) {
                if let (true, Some(presence)) = (newcomer, state.presence.as_mut()) {
                    presence.leave(viewer);
                }
                return false;
            }
            state.subscribers.insert(conn.id, Subscriber { conn: conn.clone(), after_seq: current });
            if newcomer {
                self.stats.subscribed();
            }
            true
        })
    }

    /// Gives up a subscription that never completed (Redis failed, socket closed meanwhile).
    pub fn abort_subscribe(&self, topic: &str, drop_when_unwatched: bool) -> bool {
        self.remove_if(topic, drop_when_unwatched, |state| {
            state.pending = state.pending.saturating_sub(1);
        })
    }

    /// Removes `conn_id` from the topic. With `drop_when_unwatched` (clustered), a topic nobody
    /// here watches any more is forgotten; returns true when that happened.
    pub fn unsubscribe(&self, topic: &str, conn_id: u64, drop_when_unwatched: bool) -> bool {
        self.remove_if(topic, drop_when_unwatched, |state| {
            if let Some(gone) = state.subscribers.remove(&conn_id) {
                self.stats.unsubscribed();
                if let Some(presence) = state.presence.as_mut() {
                    presence.leave(Viewer::of(&gone.conn));
                    self.presence.mark_dirty(topic);
                }
            }
        })
    }

    /// Without `drop_when_unwatched` (in-process) an unwatched topic is kept for its history,
    /// within `max_idle`.
    fn remove_if(&self, topic: &str, drop_when_unwatched: bool, change: impl FnOnce(&mut TopicState)) -> bool {
        let unwatched = match self.topics.get(topic) {
            Some(state) => {
                let state = &mut lock(&state);
                change(state);
                state.active_ms = protocol::now_ms();
                if !drop_when_unwatched && state.is_unwatched() {
                    self.note_idle(topic, state);
                }
                state.is_unwatched()
            }
            None => return false,
        };
        if !drop_when_unwatched {
            self.evict_idle();
            return false;
        }
        unwatched && self.topics.remove_if(topic, |_, state| lock(state).is_unwatched()).is_some()
    }

    pub fn is_watched(&self, topic: &str) -> bool {
        self.topics.get(topic).is_some_and(|state| !lock(&state).is_unwatched())
    }

    /// After a bus outage the sequence numbers seen here may disagree with Redis: start over
    /// at `current` and tell every subscriber to refetch (`subscribed` with recovered:false).
    pub fn resync(&self, topic: &str, current: u64) {
        if let Some(state) = self.topics.get(topic) {
            self.resync_locked(topic, &mut lock(&state), current);
        }
    }

    fn resync_locked(&self, topic: &str, state: &mut TopicState, current: u64) {
        state.last_seq = current;
        state.history.clear();
        let paced = state.subscribers.len() > PACED_ABOVE;
        for sub in state.subscribers.values_mut() {
            sub.after_seq = current;
            let delay_ms = if paced { self.refetches.next_delay_ms() } else { 0 };
            let frames = vec![protocol::subscribed_refetch(topic, current, delay_ms)];
            sub.conn.deliver(Outbound::Batch(frames), &self.stats);
        }
    }

    /// When a subscriber of this topic who must refetch it should: at once on a topic few here
    /// watch, else at the node's next refetch slot.
    fn refetch_delay_ms(&self, state: &TopicState) -> u64 {
        if state.subscribers.len() > PACED_ABOVE { self.refetches.next_delay_ms() } else { 0 }
    }

    /// The latest sequence number this node knows of the topic (None: it keeps no state for it).
    pub fn last_seq(&self, topic: &str) -> Option<u64> {
        self.topics.get(topic).map(|state| lock(&state).last_seq)
    }

    /// Back on the bus: brings the topic up to Redis's view of it. Nothing moved: nothing is
    /// sent. The events missed meanwhile are delivered in order when Redis's history still holds
    /// every one of them; otherwise the subscribers are told to refetch ([`Registry::resync`]).
    pub fn catch_up(&self, topic: &str, remote: &RemoteSnapshot) {
        let oldest = self.oldest_ms();
        let Some(state) = self.topics.get(topic) else { return };
        let state = &mut lock(&state);
        let since = state.last_seq;
        if remote.current == since {
            return;
        }
        let complete =
            remote.current > since && history::replay(since, remote.current, &remote.entries, oldest).is_some();
        if !complete {
            self.resync_locked(topic, state, remote.current);
            return;
        }
        for entry in remote.entries.iter().filter(|entry| entry.seq > since && entry.seq <= remote.current) {
            self.record_and_fan_out(state, entry.seq, entry.at_ms, entry.frame.clone(), oldest);
        }
    }

    /// Forgets topics nobody watches whose history has expired (in-process bus).
    pub fn sweep(&self) {
        let oldest = self.oldest_ms();
        self.topics.retain(|_, state| {
            let state = &mut lock(state);
            state.history.expire(oldest);
            let expired = state.history.newest_ms().is_none_or(|ms| ms < oldest);
            !(state.is_unwatched() && expired && state.active_ms < oldest)
        });
    }

    /// A frame for the topic's sockets that is neither numbered nor kept (typing).
    pub fn deliver_ephemeral(&self, topic: &str, frame: &Utf8Bytes) {
        if let Some(state) = self.topics.get(topic) {
            self.deliver_to_all(&lock(&state), frame);
        }
    }

    /// Presence and typing frames: not events, so not in the delivery counters.
    fn deliver_to_all(&self, state: &TopicState, frame: &Utf8Bytes) {
        for sub in state.subscribers.values() {
            sub.conn.deliver(Outbound::Frame(frame.clone()), &self.stats);
        }
    }

    /// This node's viewer count of the topic ((0, 0) once nobody here watches it).
    pub fn local_counts(&self, topic: &str) -> Counts {
        let Some(state) = self.topics.get(topic) else { return (0, 0) };
        lock(&state).presence.as_ref().map_or((0, 0), |presence| presence.local())
    }

    /// The counted topics watched here.
    pub fn counted_topics(&self) -> Vec<String> {
        self.topics
            .iter()
            .filter(|entry| {
                let state = lock(entry.value());
                state.presence.is_some() && !state.subscribers.is_empty()
            })
            .map(|entry| entry.key().clone())
            .collect()
    }

    /// Records the topic's total over every node, for the next [`Registry::flush_presence`].
    pub fn set_presence_total(&self, topic: &str, total: Counts) {
        let Some(state) = self.topics.get(topic) else { return };
        if let Some(presence) = lock(&state).presence.as_mut() {
            presence.set_total(total);
            self.presence.mark_changed(topic);
        }
    }

    /// Sends each topic whose total changed a `presence` frame: once per call at most.
    pub fn flush_presence(&self) {
        for topic in self.presence.take_changed() {
            let Some(state) = self.topics.get(&topic) else { continue };
            let state = &mut lock(&state);
            let Some(counts) = state.presence.as_mut().and_then(|presence| presence.take_change()) else { continue };
            self.deliver_to_all(state, &presence::frame(&topic, counts));
        }
    }

    pub fn topic_count(&self) -> usize {
        self.topics.len()
    }
}

#[cfg(test)]
#[path = "topics_tests.rs"]
mod tests;
