//! Viewer counts of a topic: ephemeral state, never in the topic's history. Each node counts its
//! own sockets per topic; the total (this node's count in-process, the sum over nodes through
//! Redis) reaches the topic's sockets as a `presence` frame at most once per
//! `presence_interval` and only when it changed.

use std::{
    collections::{HashMap, HashSet},
    sync::Mutex,
};

use axum::extract::ws::Utf8Bytes;
use serde_json::json;

use crate::CountViewers;

/// `(viewers, taskers)`: viewers are distinct signed-in users plus anonymous sockets; taskers
/// the distinct signed-in users among them.
pub(crate) type Counts = (u32, u32);

/// A counted topic's viewers on this node, and what its sockets were told.
#[derive(Debug, Default)]
pub(crate) struct TopicPresence {
    anonymous: u32,
    /// Open subscriptions per signed-in user (one user may watch from several tabs).
    users: HashMap<Box<str>, u32>,
    /// The latest total over every node; None until one is known.
    total: Option<Counts>,
    /// What the topic's sockets were last told.
    sent: Option<Counts>,
}

impl TopicPresence {
    pub fn join(&mut self, user: Option<&str>) {
        match user {
            None => self.anonymous += 1,
            Some(user) => *self.users.entry(user.into()).or_default() += 1,
        }
    }

    pub fn leave(&mut self, user: Option<&str>) {
        match user {
            None => self.anonymous = self.anonymous.saturating_sub(1),
            Some(user) => {
                if let Some(count) = self.users.get_mut(user) {
                    *count -= 1;
                    if *count == 0 {
                        self.users.remove(user);
                    }
                }
            }
        }
    }

    /// This node's own count.
    pub fn local(&self) -> Counts {
        let users = self.users.len() as u32;
        (self.anonymous + users, users)
    }

    /// The best count to tell a socket that just subscribed: the last known total, or this
    /// node's count when that is higher (the total may not include the newcomer yet).
    pub fn for_newcomer(&self) -> Counts {
        let local = self.local();
        match self.total {
            Some(total) => (total.0.max(local.0), total.1.max(local.1)),
            None => local,
        }
    }

    pub fn set_total(&mut self, total: Counts) {
        self.total = Some(total);
    }

    /// The frame to send to every socket of the topic, when the total changed since the last.
    pub fn take_change(&mut self) -> Option<Counts> {
        let total = self.total?;
        if self.sent == Some(total) {
            return None;
        }
        self.sent = Some(total);
        Some(total)
    }
}

pub(crate) fn frame(topic: &str, (viewers, taskers): Counts) -> Utf8Bytes {
    json!({"type": "presence", "topic": topic, "viewers": viewers, "taskers": taskers}).to_string().into()
}

/// The registry's bookkeeping of which counted topics need work on the next tick.
pub(crate) struct PresenceQueues {
    pub counted: CountViewers,
    /// Topics whose local count changed since the last report.
    dirty: Mutex<HashSet<String>>,
    /// Topics whose total changed since their sockets were last told.
    changed: Mutex<HashSet<String>>,
}

impl PresenceQueues {
    pub fn new(counted: CountViewers) -> Self {
        Self { counted, dirty: Mutex::default(), changed: Mutex::default() }
    }

    pub fn mark_dirty(&self, topic: &str) {
        let mut dirty = self.dirty.lock().unwrap_or_else(|p| p.into_inner());
        if !dirty.contains(topic) {
            dirty.insert(topic.to_owned());
        }
    }

    pub fn take_dirty(&self) -> Vec<String> {
        std::mem::take(&mut *self.dirty.lock().unwrap_or_else(|p| p.into_inner())).into_iter().collect()
    }

    pub fn mark_changed(&self, topic: &str) {
        let mut changed = self.changed.lock().unwrap_or_else(|p| p.into_inner());
        if !changed.contains(topic) {
            changed.insert(topic.to_owned());
        }
    }

    pub fn take_changed(&self) -> Vec<String> {
        std::mem::take(&mut *self.changed.lock().unwrap_or_else(|p| p.into_inner())).into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_distinct_users_and_every_anonymous_socket() {
        let mut presence = TopicPresence::default();
        presence.join(Some("u1"));
        presence.join(Some("u1"));
        presence.join(None);
        presence.join(None);
        assert_eq!(presence.local(), (3, 1));
        presence.leave(Some("u1"));
        assert_eq!(presence.local(), (3, 1), "u1 still has a tab open");
        presence.leave(Some("u1"));
        presence.leave(None);
        assert_eq!(presence.local(), (1, 0));
    }

    #[test]
    fn a_change_is_taken_once() {
        let mut presence = TopicPresence::default();
        assert_eq!(presence.take_change(), None, "nothing known yet");
        presence.set_total((2, 1));
        assert_eq!(presence.take_change(), Some((2, 1)));
        assert_eq!(presence.take_change(), None);
        presence.set_total((2, 1));
        assert_eq!(presence.take_change(), None, "same number again is no change");
        presence.set_total((1, 1));
        assert_eq!(presence.take_change(), Some((1, 1)));
    }
}
