//! Identical anonymous reads of one task page share their database reads. A page takes about ten
//! queries; when a crowd asks for the same page at once (watchers refetching after a resync,
//! polling while live updates are degraded) each read would otherwise make them all again.
//!
//! The rule keeps every answer as fresh as an unshared one: a request shares only an answer whose
//! reads *began after it arrived*. Requests for a task queue behind its read in flight; when that
//! read ends, the first of them begins the next one and every request that arrived before that
//! began takes its answer. So a task needs at most one read at a time per node, however many
//! ask, and an answer never predates its request: a task removed, edited or asked about before a
//! request is seen by it. Only anonymous requests share (they are all shown the same page);
//! signed-in callers read on their own.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use uuid::Uuid;

use crate::{
    error::{ApiError, ApiResult},
    http::marketplace_views::TaskDetail,
};

/// Slots of abandoned reads are swept once this many tasks have one.
const SWEEP_AT: usize = 1_024;

#[derive(Clone, Default)]
pub struct TaskPageReads {
    slots: Arc<Mutex<HashMap<Uuid, Arc<Slot>>>>,
    reads_begun: Arc<AtomicU64>,
}

#[derive(Default)]
struct Slot {
    /// Reads of this task begun so far; a request notes it when it arrives.
    begun: AtomicU64,
    /// The read in flight is the holder's; after it, the latest answer and its read's number.
    latest: tokio::sync::Mutex<Option<(u64, Shared)>>,
}

/// An answer as every waiter gets it.
#[derive(Clone)]
enum Shared {
    Page(Box<TaskDetail>),
    NotFound(String),
    Unavailable,
    Failed,
}

impl Shared {
    fn from_result(result: &ApiResult<TaskDetail>) -> Self {
        match result {
            Ok(page) => Shared::Page(Box::new(page.clone())),
            Err(ApiError::NotFound(message)) => Shared::NotFound(message.clone()),
            Err(ApiError::Unavailable) => Shared::Unavailable,
            Err(_) => Shared::Failed,
        }
    }

    fn into_result(self) -> ApiResult<TaskDetail> {
        match self {
            Shared::Page(page) => Ok(*page),
            Shared::NotFound(message) => Err(ApiError::NotFound(message)),
            // The stale-read copy answers a 503 for anonymous readers, like an unshared read's.
            Shared::Unavailable => Err(ApiError::Unavailable),
            Shared::Failed => Err(anyhow::anyhow!("the shared read of a task page failed").into()),
        }
    }
}

impl TaskPageReads {
    /// The page of `task_id`, from `read` or from a read of it that began after this call.
    pub async fn read<F, Fut>(&self, task_id: Uuid, read: F) -> ApiResult<TaskDetail>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = ApiResult<TaskDetail>>,
    {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if slots.len() >= SWEEP_AT {
                // Slots left behind by reads whose client hung up mid-read.
                slots.retain(|_, slot| Arc::strong_count(slot) > 1);
            }
            slots.entry(task_id).or_default().clone()
        };
        let arrived_after = slot.begun.load(Ordering::SeqCst);
        let answer = {
            let mut latest = slot.latest.lock().await;
            match &*latest {
                Some((number, shared)) if *number > arrived_after => shared.clone().into_result(),
                _ => {
                    let number = slot.begun.fetch_add(1, Ordering::SeqCst) + 1;
                    self.reads_begun.fetch_add(1, Ordering::Relaxed);
                    let result = read().await;
                    *latest = Some((number, Shared::from_result(&result)));
                    result
                }
            }
        };
        self.forget_if_idle(task_id, slot);
        answer
    }

    /// Reads made (not shared) since the node started: how well sharing works, for tests.
    pub fn reads_begun(&self) -> u64 {
        self.reads_begun.load(Ordering::Relaxed)
    }

    /// Requests reading or waiting for the page of `task_id` now (for tests).
    pub fn readers(&self, task_id: Uuid) -> usize {
        let slots = self.slots.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        slots.get(&task_id).map_or(0, |slot| Arc::strong_count(slot) - 1)
    }

    /// Drops the slot (and its answer) once nobody waits on it, so memory follows the crowd.
    fn forget_if_idle(&self, task_id: Uuid, slot: Arc<Slot>) {
        let mut slots = self.slots.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Clones are made under this lock: the map's and ours are the only ones left.
        if Arc::strong_count(&slot) == 2 {
            slots.remove(&task_id);
        }
    }
}
