//! Identical anonymous reads share their database reads: a task page (about ten queries) and a
//! browse page (the busiest route). When a crowd asks for the same thing at once (watchers
//! refetching after a resync, polling while live updates are degraded, everyone opening the
//! browse list) each read would otherwise make the same queries again.
//!
//! The rule keeps every answer as fresh as an unshared one: a request shares only an answer whose
//! reads *began after it arrived*. Requests for a key queue behind its read in flight; when that
//! read ends, the first of them begins the next one and every request that arrived before that
//! began takes its answer. So a key needs at most one read at a time per node, however many
//! ask, and an answer never predates its request: a task removed, edited or posted before a
//! request is seen by it. Only anonymous requests share (they are all shown the same answer);
//! signed-in callers read on their own.

use std::{
    collections::HashMap,
    hash::Hash,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
};

use uuid::Uuid;

use domain::wire::{
    marketplace::{TaskDetail, TaskSummary},
    paging::Page,
};

use crate::http::error::{ApiError, ApiResult};

/// Anonymous task pages, by task.
pub type TaskPageReads = SharedReads<Uuid, TaskDetail>;
/// Anonymous browse pages, by their normalised query (filters, sort, cursor, limit).
pub type BrowseReads = SharedReads<String, Page<TaskSummary>>;

/// Slots of abandoned reads are swept once this many keys have one.
const SWEEP_AT: usize = 1_024;

pub struct SharedReads<K, V> {
    slots: Arc<Mutex<HashMap<K, Arc<Slot<V>>>>>,
    reads_begun: Arc<AtomicU64>,
}

impl<K, V> Clone for SharedReads<K, V> {
    fn clone(&self) -> Self {
        Self { slots: self.slots.clone(), reads_begun: self.reads_begun.clone() }
    }
}

impl<K, V> Default for SharedReads<K, V> {
    fn default() -> Self {
        Self { slots: Default::default(), reads_begun: Default::default() }
    }
}

struct Slot<V> {
    /// Reads of this key begun so far; a request notes it when it arrives.
    begun: AtomicU64,
    /// The read in flight is the holder's; after it, the latest answer and its read's number.
    latest: tokio::sync::Mutex<Option<(u64, Shared<V>)>>,
}

impl<V> Default for Slot<V> {
    fn default() -> Self {
        Self { begun: AtomicU64::new(0), latest: tokio::sync::Mutex::new(None) }
    }
}

/// An answer as every waiter gets it.
#[derive(Clone)]
enum Shared<V> {
    Answer(Box<V>),
    NotFound(String),
    Unavailable,
    Failed,
}

impl<V: Clone> Shared<V> {
    fn from_result(result: &ApiResult<V>) -> Self {
        match result {
            Ok(answer) => Shared::Answer(Box::new(answer.clone())),
            Err(ApiError::NotFound(message)) => Shared::NotFound(message.clone()),
            Err(ApiError::Unavailable) => Shared::Unavailable,
            Err(_) => Shared::Failed,
        }
    }

    fn into_result(self) -> ApiResult<V> {
        match self {
            Shared::Answer(answer) => Ok(*answer),
            Shared::NotFound(message) => Err(ApiError::NotFound(message)),
            // The stale-read copy answers a 503 for anonymous readers, like an unshared read's.
            Shared::Unavailable => Err(ApiError::Unavailable),
            Shared::Failed => Err(anyhow::anyhow!("a shared read failed").into()),
        }
    }
}

impl<K: Hash + Eq + Clone, V: Clone> SharedReads<K, V> {
    /// The answer for `key`, from `read` or from a read of it that began after this call.
    pub async fn read<F, Fut>(&self, key: K, read: F) -> ApiResult<V>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = ApiResult<V>>,
    {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if slots.len() >= SWEEP_AT {
                // Slots left behind by reads whose client hung up mid-read.
                slots.retain(|_, slot| Arc::strong_count(slot) > 1);
            }
            slots.entry(key.clone()).or_default().clone()
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
        self.forget_if_idle(&key, slot);
        answer
    }

    /// Reads made (not shared) since the node started: how well sharing works, for tests.
    pub fn reads_begun(&self) -> u64 {
        self.reads_begun.load(Ordering::Relaxed)
    }

    /// Requests reading or waiting for `key` now (for tests).
    pub fn readers(&self, key: &K) -> usize {
        let slots = self.slots.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        slots.get(key).map_or(0, |slot| Arc::strong_count(slot) - 1)
    }

    /// Requests reading or waiting for any key now (for tests).
    pub fn all_readers(&self) -> usize {
        let slots = self.slots.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        slots.values().map(|slot| Arc::strong_count(slot) - 1).sum()
    }

    /// Drops the slot (and its answer) once nobody waits on it, so memory follows the crowd.
    fn forget_if_idle(&self, key: &K, slot: Arc<Slot<V>>) {
        let mut slots = self.slots.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Clones are made under this lock: the map's and ours are the only ones left.
        if Arc::strong_count(&slot) == 2 {
            slots.remove(key);
        }
    }
}
