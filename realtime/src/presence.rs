//! Viewer counts of a topic: ephemeral state, never in the topic's history. Each node counts its
//! own sockets per topic; the total (this node's count in-process, the sum over nodes through
//! Redis) reaches the topic's sockets as a `presence` frame at most once per
//! `presence_interval` and only when it changed.

use std::{
    collections::{HashMap, HashSet},
    net::IpAddr,
    sync::Mutex,
};

use axum::extract::ws::Utf8Bytes;
use serde_json::json;

use crate::{CountViewers, handle::ConnHandle};

/// `(viewers, taskers)`: viewers are distinct signed-in users plus anonymous sockets (at most
/// [`ANONYMOUS_PER_ADDRESS`] of one client address); taskers the distinct signed-in users among them.
pub(crate) type Counts = (u32, u32);

/// The anonymous sockets of one client address that count as viewers: a few (a household, an
/// office), never the dozens one script can open to inflate "N people viewing".
pub const ANONYMOUS_PER_ADDRESS: u32 = 3;

/// Who a counted subscription is.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Viewer<'a> {
    User(&'a str),
    /// An anonymous socket, of its client's address when the hub was told it.
    Anonymous(Option<IpAddr>),
}

impl<'a> Viewer<'a> {
    pub fn of(conn: &'a ConnHandle) -> Self {
        match &conn.owner {
            Some(owner) => Viewer::User(owner.user_id.as_str()),
            None => Viewer::Anonymous(conn.client),
        }
    }
}

/// A counted topic's viewers on this node, and what its sockets were told.
#[derive(Debug, Default)]
pub(crate) struct TopicPresence {
    /// Anonymous subscriptions per client address.
    anonymous: HashMap<IpAddr, u32>,
    /// Anonymous subscriptions of sockets whose address is not known (each counts).
    unaddressed: u32,
    /// Open subscriptions per signed-in user (one user may watch from several tabs).
    users: HashMap<Box<str>, u32>,
    /// The latest total over every node; None until one is known.
    total: Option<Counts>,
    /// What the topic's sockets were last told.
    sent: Option<Counts>,
}

impl TopicPresence {
    pub fn join(&mut self, viewer: Viewer<'_>) {
        match viewer {
            Viewer::Anonymous(Some(client)) => *self.anonymous.entry(client).or_default() += 1,
            Viewer::Anonymous(None) => self.unaddressed += 1,
            Viewer::User(user) => *self.users.entry(user.into()).or_default() += 1,
        }
    }

    pub fn leave(&mut self, viewer: Viewer<'_>) {
        match viewer {
            Viewer::Anonymous(Some(client)) => {
                if let Some(count) = self.anonymous.get_mut(&client) {
                    *count -= 1;
                    if *count == 0 {
                        self.anonymous.remove(&client);
                    }
                }
            }
            Viewer::Anonymous(None) => self.unaddressed = self.unaddressed.saturating_sub(1),
            Viewer::User(user) => {
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
        let anonymous: u32 = self.anonymous.values().map(|count| (*count).min(ANONYMOUS_PER_ADDRESS)).sum();
        (self.unaddressed + anonymous + users, users)
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
        presence.join(Viewer::User("u1"));
        presence.join(Viewer::User("u1"));
        presence.join(Viewer::Anonymous(None));
        presence.join(Viewer::Anonymous(None));
        assert_eq!(presence.local(), (3, 1));
        presence.leave(Viewer::User("u1"));
        assert_eq!(presence.local(), (3, 1), "u1 still has a tab open");
        presence.leave(Viewer::User("u1"));
        presence.leave(Viewer::Anonymous(None));
        assert_eq!(presence.local(), (1, 0));
    }

    #[test]
    fn one_address_counts_for_a_few_anonymous_viewers_at_most() {
        let mut presence = TopicPresence::default();
        let (crowd, neighbour): (IpAddr, IpAddr) = ("203.0.113.7".parse().unwrap(), "198.51.100.2".parse().unwrap());
        for _ in 0..49 {
            presence.join(Viewer::Anonymous(Some(crowd)));
        }
        presence.join(Viewer::Anonymous(Some(neighbour)));
        presence.join(Viewer::User("u1"));
        assert_eq!(presence.local(), (ANONYMOUS_PER_ADDRESS + 2, 1), "49 sockets of one address count as 3");
        for _ in 0..47 {
            presence.leave(Viewer::Anonymous(Some(crowd)));
        }
        assert_eq!(presence.local(), (4, 1), "two left of that address");
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
