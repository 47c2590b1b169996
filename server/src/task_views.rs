//! Task page views, counted off the request path. A `GET /api/tasks/{id}` only notes its
//! (task, viewer, day) in this node's buffer, where repeats fold into one; a worker writes the
//! buffer once a second in one transaction (`store::tasks::record_views`, which skips views already
//! stored by any node), so a herd of readers costs one small write a second instead of a write
//! transaction each.
//!
//! The price: a view shows in `view_count` up to a second late, and a node that crashes loses the
//! views of its last second (at most; a graceful shutdown writes the buffer after the last request
//! has finished). While the database is away or busy the buffer is kept and written when it can
//! be, up to `MAX_PENDING` views.

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
    time::Duration,
};

use tokio_util::sync::CancellationToken;

use store::{
    db::Db,
    tasks::{self, TaskView},
};

/// How often the buffer is written: also the most a crash can lose.
pub const FLUSH_EVERY: Duration = Duration::from_secs(1);
/// Bounds the memory of a long database outage; views past it are dropped (and logged).
const MAX_PENDING: usize = 100_000;

/// This node's views not yet written; cheap to clone.
#[derive(Clone, Default)]
pub struct TaskViews {
    pending: Arc<Mutex<HashSet<TaskView>>>,
    /// One flush at a time: when `flush` returns, every view noted before it was called is stored.
    flushing: Arc<tokio::sync::Mutex<()>>,
}

impl TaskViews {
    /// Notes a view; written by the next flush.
    pub fn record(&self, view: TaskView) {
        let mut pending = self.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if pending.len() < MAX_PENDING {
            pending.insert(view);
        } else if !pending.contains(&view) {
            tracing::warn!(task_id = %view.task_id, "task view buffer full; a view was not counted");
        }
    }

    /// Views noted and not yet written.
    pub fn pending(&self) -> usize {
        self.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).len()
    }

    /// Writes every view noted so far; returns how many were new to the database. When the
    /// database is away the views go back into the buffer for the next flush.
    pub async fn flush(&self, db: &Db) -> sqlx::Result<u64> {
        let _one_at_a_time = self.flushing.lock().await;
        let batch: Vec<TaskView> =
            std::mem::take(&mut *self.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
                .into_iter()
                .collect();
        if batch.is_empty() {
            return Ok(0);
        }
        match tasks::record_views(db, &batch).await {
            Ok(added) => Ok(added),
            Err(error) => {
                if views_of_a_deleted_task(&error) {
                    // Retrying the same batch would fail forever (tasks are not deleted today).
                    tracing::error!(%error, views = batch.len(), "task views could not be stored; dropped");
                } else {
                    // The database is away or busy: the next flush tries again.
                    for view in batch {
                        self.record(view);
                    }
                }
                Err(error)
            }
        }
    }
}

fn views_of_a_deleted_task(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(error) if error.is_foreign_key_violation())
}

/// Writes the buffer every [`FLUSH_EVERY`], and once more when the node stops (after its last
/// request: see `workers`).
pub async fn run(views: TaskViews, db: Db, stop: CancellationToken) {
    let mut interval = tokio::time::interval(FLUSH_EVERY);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = stop.cancelled() => break,
            _ = interval.tick() => {
                if let Err(error) = views.flush(&db).await {
                    tracing::warn!(%error, pending = views.pending(), "task views not written yet");
                }
            }
        }
    }
    if let Err(error) = views.flush(&db).await {
        tracing::error!(%error, lost = views.pending(), "task views not written at shutdown");
    }
}
