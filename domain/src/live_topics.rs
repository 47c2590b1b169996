//! Which live topics name something that exists. The hub asks before it keeps any state for a
//! subscription, so an anonymous socket cannot make it track made-up `task:{id}` topics.
//! `tasks` always exists; `user:{id}` is only ever allowed to its own user.

use std::sync::Arc;

use dashmap::DashSet;
use uuid::Uuid;

use store::{
    db::{Db, Timestamp},
    last_seen, receipts, tasks,
};

/// Tasks are never deleted, so a task seen once stays known; the set is emptied when full.
const KNOWN_TASKS_CAP: usize = 10_000;

pub fn topic_exists(db: Db) -> realtime::TopicExists {
    let known: Arc<DashSet<Uuid>> = Arc::new(DashSet::new());
    Arc::new(move |topic| {
        let Some(id) = topic.strip_prefix("task:") else {
            return Box::pin(std::future::ready(true));
        };
        let Ok(id) = Uuid::parse_str(id) else {
            return Box::pin(std::future::ready(false));
        };
        if known.contains(&id) {
            return Box::pin(std::future::ready(true));
        }
        let (db, known) = (db.clone(), known.clone());
        Box::pin(async move {
            match tasks::task_exists(&db, id).await {
                Ok(true) => {
                    if known.len() >= KNOWN_TASKS_CAP {
                        known.clear();
                    }
                    known.insert(id);
                    true
                }
                Ok(false) => false,
                // Live updates of real tasks matter more than the memory a database outage
                // could let an attacker use: the subscribe rate and idle-topic limits still hold.
                Err(error) => {
                    tracing::warn!(error = ?error, "could not check a live topic; allowing it");
                    true
                }
            }
        })
    })
}

/// The operators' topic: new reports and disputes. Only sockets of operators may hold it.
pub const ADMIN_TOPIC: &str = "admin";

/// The operators among this node's socket owners. The hub's `authorize` is synchronous and knows
/// only the user id, so `/ws` marks an operator's id here when it accepts the socket (operator
/// status only ever comes from `ADMIN_EMAILS`, fixed for the process, and a verified address).
#[derive(Clone, Default)]
pub struct OperatorSockets(Arc<DashSet<String>>);

impl OperatorSockets {
    pub fn mark(&self, user_id: Uuid) {
        self.0.insert(user_id.to_string());
    }

    /// `admin` for marked operators; every other topic as the hub decides by default.
    pub fn authorize(&self) -> realtime::Authorize {
        let operators = self.0.clone();
        Arc::new(move |user_id, topic| {
            if topic == ADMIN_TOPIC {
                return user_id.is_some_and(|id| operators.contains(id));
            }
            realtime::default_authorize(user_id, topic)
        })
    }
}

/// Whom a `typing` message reaches: the other party of a job under way (assigned, or waiting for
/// release), for its poster or its assigned tasker; nobody (refused) for anyone else, an
/// unassigned task or one that has ended. One indexed read per
/// accepted message (the hub lets a socket type at most once every 2 s).
pub fn typing_peer(db: Db) -> realtime::TypingPeer {
    Arc::new(move |user_id, task_id| {
        let (Ok(user_id), Ok(task_id)) = (Uuid::parse_str(user_id), Uuid::parse_str(task_id)) else {
            return Box::pin(std::future::ready(None));
        };
        let db = db.clone();
        Box::pin(async move {
            let task = tasks::task(&db, task_id).await.ok().flatten()?;
            if !task.status.is_under_way() {
                return None;
            }
            let tasker_id = task.assigned_tasker_id?;
            match user_id {
                id if id == task.poster_id => Some(tasker_id.to_string()),
                id if id == tasker_id => Some(task.poster_id.to_string()),
                _ => None,
            }
        })
    })
}

/// Who may see whether a user is online (`online:{id}`): the other party of a job under way
/// between them (assigned or waiting for release; not once it ended), when both share their online state (`PUT /api/me/privacy`; whoever turns
/// it off sees no one's either). Answered with when the user was last seen. Three indexed reads
/// per watch (a messages screen opening), none per change of state.
pub fn online_access(db: Db) -> realtime::OnlineAccess {
    Arc::new(move |watcher, watched| {
        let (Ok(watcher), Ok(watched)) = (Uuid::parse_str(watcher), Uuid::parse_str(watched)) else {
            return Box::pin(std::future::ready(None));
        };
        let db = db.clone();
        Box::pin(async move {
            if watcher == watched || !last_seen::parties_of_a_job_under_way(&db, watcher, watched).await.ok()? {
                return None;
            }
            let shared = receipts::privacy(&db, watcher).await.ok()?.share_online
                && receipts::privacy(&db, watched).await.ok()?.share_online;
            if !shared {
                return None;
            }
            let seen = last_seen::last_seen(&db, watched).await.ok()?;
            Some(realtime::OnlineGrant { last_seen_ms: seen.map(|at| at.0.max(0) as u64) })
        })
    })
}

/// Stores when a user's last socket on this node closed, off the socket's path.
pub fn record_last_seen(db: Db, background: tokio_util::task::TaskTracker) -> realtime::RecordLastSeen {
    Arc::new(move |user, at_ms| {
        let Ok(user) = Uuid::parse_str(user) else { return };
        let db = db.clone();
        background.spawn(async move {
            if let Err(error) = last_seen::record(&db, user, Timestamp(at_ms as i64)).await {
                tracing::warn!(error = ?error, "could not store when a user was last seen");
            }
        });
    })
}
