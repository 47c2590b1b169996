//! Whether a user is online (a socket open on any node) and when they were last seen, for the
//! other party of their assigned tasks. A socket asks by subscribing to `online:{user id}`; the
//! server decides who may (`HubConfig::online_access`) and answers with the stored last-seen
//! time. The watcher gets `{"type":"presence","topic":"user:{id}","online","last_seen"}` right
//! after `subscribed`, then on each change, at most once per `presence_interval`. Ephemeral,
//! like viewer counts: never numbered, never in a history.
//!
//! Each node counts the signed-in sockets it holds per user. In-process that count is the
//! answer; with Redis each node reports it into one hash per user (`bus/online.rs`), with an
//! expiry, so a dead node's users go offline within about `presence_ttl`.

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex, MutexGuard},
};

use axum::extract::ws::Utf8Bytes;
use serde_json::json;
use time::{OffsetDateTime, format_description::well_known::Rfc3339};

use crate::{handle::ConnHandle, protocol, queue::Outbound, stats::Stats};

pub(crate) const TOPIC_PREFIX: &str = "online:";

/// The user an `online:{user id}` topic is about.
pub(crate) fn watched_user(topic: &str) -> Option<&str> {
    topic.strip_prefix(TOPIC_PREFIX).filter(|user| !user.is_empty())
}

pub(crate) fn topic(user: &str) -> String {
    format!("{TOPIC_PREFIX}{user}")
}

/// A user's state over every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OnlineState {
    pub online: bool,
    /// When their last socket closed (unix ms), while offline; None while online or unknown.
    pub last_seen_ms: Option<u64>,
}

impl OnlineState {
    pub const ONLINE: OnlineState = OnlineState { online: true, last_seen_ms: None };

    pub fn offline(last_seen_ms: Option<u64>) -> Self {
        OnlineState { online: false, last_seen_ms }
    }

    /// The later of two last-seen times while offline (one from a node, one stored).
    pub fn seen_no_earlier_than(self, stored_ms: Option<u64>) -> Self {
        match self.online {
            true => self,
            false => OnlineState::offline(self.last_seen_ms.max(stored_ms)),
        }
    }
}

pub(crate) fn frame(user: &str, state: OnlineState) -> Utf8Bytes {
    let last_seen = state
        .last_seen_ms
        .filter(|_| !state.online)
        .and_then(|ms| OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).ok())
        .and_then(|at| at.format(&Rfc3339).ok());
    json!({"type": "presence", "topic": format!("user:{user}"), "online": state.online, "last_seen": last_seen})
        .to_string()
        .into()
}

/// The sockets here watching one user, and what they know.
#[derive(Default)]
struct Watch {
    /// Each watcher, and the state it was last told (watchers join at different times).
    watchers: HashMap<u64, Watcher>,
    /// The latest state known (None until one is).
    state: Option<OnlineState>,
    /// When this node last saw the user's last local socket close (unix ms).
    left_here_ms: Option<u64>,
}

struct Watcher {
    conn: Arc<ConnHandle>,
    told: OnlineState,
    /// Sharing was turned off by either party: told "offline, never seen" once, then nothing
    /// until it subscribes again (and the server allows it again).
    hidden: bool,
}

/// What a watcher is told once sharing is off: nothing known.
const HIDDEN: OnlineState = OnlineState { online: false, last_seen_ms: None };

#[derive(Default)]
pub(crate) struct OnlineUsers {
    /// Signed-in sockets open on this node, per user.
    local: Mutex<HashMap<Box<str>, u32>>,
    /// Users watched by sockets of this node.
    watched: Mutex<HashMap<Box<str>, Watch>>,
    /// Users whose local count went from or to zero since the last tick.
    dirty: Mutex<HashSet<Box<str>>>,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl OnlineUsers {
    pub fn opened(&self, user: &str) {
        let mut local = locked(&self.local);
        let count = local.entry(user.into()).or_default();
        *count += 1;
        if *count == 1 {
            self.mark_dirty(user);
        }
    }

    /// A socket of the user closed at `now_ms`; true when it was their last one here.
    pub fn closed(&self, user: &str, now_ms: u64) -> bool {
        let mut local = locked(&self.local);
        let Some(count) = local.get_mut(user) else { return false };
        *count -= 1;
        if *count > 0 {
            return false;
        }
        local.remove(user);
        drop(local);
        if let Some(watch) = locked(&self.watched).get_mut(user) {
            watch.left_here_ms = Some(now_ms);
        }
        self.mark_dirty(user);
        true
    }

    pub fn local_count(&self, user: &str) -> u32 {
        locked(&self.local).get(user).copied().unwrap_or(0)
    }

    /// This node's own view: online while it holds a socket of the user.
    pub fn local_state(&self, user: &str) -> OnlineState {
        match self.local_count(user) {
            0 => OnlineState::offline(locked(&self.watched).get(user).and_then(|watch| watch.left_here_ms)),
            _ => OnlineState::ONLINE,
        }
    }

    pub fn local_users(&self) -> Vec<String> {
        locked(&self.local).keys().map(|user| user.to_string()).collect()
    }

    pub fn watched_users(&self) -> Vec<String> {
        locked(&self.watched).keys().map(|user| user.to_string()).collect()
    }

    pub fn is_watched(&self, user: &str) -> bool {
        locked(&self.watched).contains_key(user)
    }

    pub fn mark_dirty(&self, user: &str) {
        let mut dirty = locked(&self.dirty);
        if !dirty.contains(user) {
            dirty.insert(user.into());
        }
    }

    pub fn take_dirty(&self) -> Vec<String> {
        std::mem::take(&mut *locked(&self.dirty)).into_iter().map(String::from).collect()
    }

    /// Adds `conn` to the user's watchers and queues `subscribed` and `state` for it as one unit.
    /// False when its queue is full (it is then being closed as a slow consumer).
    pub fn watch(&self, conn: &Arc<ConnHandle>, user: &str, state: OnlineState, stats: &Stats) -> bool {
        let mut watched = locked(&self.watched);
        let watch = watched.entry(user.into()).or_default();
        let state = state.seen_no_earlier_than(watch.state.and_then(|known| known.last_seen_ms));
        watch.state = Some(state);
        let frames = vec![protocol::subscribed(&topic(user), 0, false), frame(user, state)];
        if !conn.deliver(Outbound::Batch(frames), stats) {
            if watch.watchers.is_empty() {
                watched.remove(user);
            }
            return false;
        }
        watch.watchers.insert(conn.id, Watcher { conn: conn.clone(), told: state, hidden: false });
        true
    }

    /// Removes a watcher; true when nobody here watches the user any more.
    pub fn unwatch(&self, user: &str, conn_id: u64) -> bool {
        let mut watched = locked(&self.watched);
        let Some(watch) = watched.get_mut(user) else { return false };
        watch.watchers.remove(&conn_id);
        if !watch.watchers.is_empty() {
            return false;
        }
        watched.remove(user);
        true
    }

    /// Records the user's latest state over every node, for the next [`OnlineUsers::flush`].
    pub fn set_state(&self, user: &str, state: OnlineState) {
        if let Some(watch) = locked(&self.watched).get_mut(user) {
            watch.state = Some(state.seen_no_earlier_than(watch.state.and_then(|known| known.last_seen_ms)));
        }
    }

    /// Tells the watchers of each user whose state changed since they were last told.
    pub fn flush(&self, stats: &Stats) {
        let mut watched = locked(&self.watched);
        for (user, watch) in watched.iter_mut() {
            let Some(state) = watch.state else { continue };
            let mut frame = None;
            for watcher in watch.watchers.values_mut() {
                if !watcher.hidden && watcher.told != state {
                    watcher.told = state;
                    let frame = frame.get_or_insert_with(|| self::frame(user, state));
                    watcher.conn.deliver(Outbound::Frame(frame.clone()), stats);
                }
            }
        }
    }

    /// `user` turned sharing off: their watchers here, and their own sockets watching anyone,
    /// are told "offline, never seen" and then nothing more.
    pub fn hide(&self, user: &str, stats: &Stats) {
        let mut watched = locked(&self.watched);
        for (watched_user, watch) in watched.iter_mut() {
            let all = &**watched_user == user;
            for watcher in watch.watchers.values_mut() {
                let own = watcher.conn.owner.as_ref().is_some_and(|owner| owner.user_id == user);
                if (all || own) && !watcher.hidden {
                    watcher.hidden = true;
                    watcher.told = HIDDEN;
                    watcher.conn.deliver(Outbound::Frame(frame(watched_user, HIDDEN)), stats);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_is_online_here_until_their_last_socket_closes() {
        let online = OnlineUsers::default();
        online.opened("u1");
        online.opened("u1");
        assert_eq!(online.take_dirty(), vec!["u1".to_owned()]);
        assert_eq!(online.local_state("u1"), OnlineState::ONLINE);
        assert!(!online.closed("u1", 10), "another tab is open");
        assert!(online.take_dirty().is_empty(), "no change to report");
        assert!(online.closed("u1", 20));
        assert_eq!(online.take_dirty(), vec!["u1".to_owned()]);
        assert_eq!(online.local_state("u1"), OnlineState::offline(None), "nobody watched: nothing kept");
        assert!(online.local_users().is_empty());
        assert!(!online.closed("u1", 30), "an unknown socket changes nothing");
    }

    #[test]
    fn the_frame_names_the_user_and_says_when_they_were_last_seen() {
        let online: serde_json::Value = serde_json::from_str(frame("u1", OnlineState::ONLINE).as_str()).unwrap();
        assert_eq!(online, json!({"type": "presence", "topic": "user:u1", "online": true, "last_seen": null}));
        let offline: serde_json::Value =
            serde_json::from_str(frame("u1", OnlineState::offline(Some(1_700_000_000_000))).as_str()).unwrap();
        assert_eq!(offline["online"], false);
        assert_eq!(offline["last_seen"], "2023-11-14T22:13:20Z");
    }

    #[test]
    fn the_later_last_seen_wins_while_offline() {
        assert_eq!(OnlineState::offline(Some(5)).seen_no_earlier_than(Some(9)), OnlineState::offline(Some(9)));
        assert_eq!(OnlineState::offline(Some(9)).seen_no_earlier_than(None), OnlineState::offline(Some(9)));
        assert_eq!(OnlineState::ONLINE.seen_no_earlier_than(Some(9)), OnlineState::ONLINE);
    }
}
