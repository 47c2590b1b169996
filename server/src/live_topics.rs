//! Which live topics name something that exists. The hub asks before it keeps any state for a
//! subscription, so an anonymous socket cannot make it track made-up `task:{id}` topics.
//! `tasks` always exists; `user:{id}` is only ever allowed to its own user.

use std::sync::Arc;

use dashmap::DashSet;
use uuid::Uuid;

use crate::{db::Db, store::tasks};

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
