//! What the population shares and what the audit checks afterwards: every write and whether it
//! was acknowledged, when each offer was acknowledged and when its poster learned of it, and by
//! which path each user saw each notification.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed},
    },
    time::Duration,
};

use tokio::time::Instant;

use crate::metrics::Metrics;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WriteKind {
    Task,
    Offer,
    Message,
}

/// How a client first learned of something.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Path {
    Live,
    /// Replayed from the hub's history after a `since` resubscribe.
    Recovery,
    /// Refetched over REST after `recovered:false`.
    Refetch,
    /// Polled over REST while live updates were degraded.
    Poll,
}

pub struct World {
    pub run: String,
    pub metrics: Arc<Metrics>,
    pub stopping: AtomicBool,
    /// Clients that stopped acting and only listen (for the audit's settle period).
    pub idle: AtomicUsize,
    /// The settle period is over: the audit can start.
    pub settled: AtomicBool,
    /// (kind, the unique text that identifies the row, acknowledged with 2xx)
    pub writes: Mutex<Vec<(WriteKind, String, bool)>>,
    pub open_tasks: Mutex<Vec<String>>,
    /// offer id → when its tasker got the 201
    pub offers_acked: Mutex<HashMap<String, Duration>>,
    /// offer id → when its poster first knew of it, and how
    pub offers_known: Mutex<HashMap<String, (Duration, Path)>>,
    /// user id → notification id → how it first reached the user
    pub notifications: Mutex<HashMap<String, HashMap<String, Path>>>,
    /// Tasks whose sandbox checkout was paid (the card was charged): each must end up held.
    pub paid_tasks: Mutex<Vec<String>>,
    pub poll_interval: Duration,
    /// The cluster's EMAIL_DELAY: unread notifications are mailed after it.
    pub email_delay: Duration,
    /// Taskers with a task alert matching every soak task.
    pub alerting_taskers: AtomicUsize,
}

impl World {
    pub fn new(run: String, metrics: Arc<Metrics>, poll_interval: Duration, email_delay: Duration) -> Self {
        Self {
            run,
            metrics,
            stopping: AtomicBool::new(false),
            idle: AtomicUsize::new(0),
            settled: AtomicBool::new(false),
            writes: Mutex::default(),
            open_tasks: Mutex::default(),
            offers_acked: Mutex::default(),
            offers_known: Mutex::default(),
            notifications: Mutex::default(),
            paid_tasks: Mutex::default(),
            poll_interval,
            email_delay,
            alerting_taskers: AtomicUsize::new(0),
        }
    }

    /// What a client's "last poll" starts at when live updates turn degraded: as in the web app
    /// (`degraded-polling.ts`), its first poll comes at a random point of the first interval.
    pub fn polling_phase(&self) -> Instant {
        let now = Instant::now();
        let already_waited = self.poll_interval.mul_f64(fastrand::f64());
        now.checked_sub(already_waited).unwrap_or(now)
    }

    /// The jitter a client adds to the node's slot before refetching a shared topic (the feed, a
    /// task page) after a resync: a random point of 2 s, as in the web app (`RESYNC_SPREAD_MS`).
    pub fn resync_spread(&self) -> Duration {
        Duration::from_millis(fastrand::u64(0..2_000))
    }

    pub fn stopping(&self) -> bool {
        self.stopping.load(Relaxed)
    }

    pub fn settled(&self) -> bool {
        self.settled.load(Relaxed)
    }

    pub fn write(&self, kind: WriteKind, key: String, acknowledged: bool) {
        self.writes.lock().unwrap().push((kind, key, acknowledged));
    }

    pub fn some_open_task(&self) -> Option<String> {
        let tasks = self.open_tasks.lock().unwrap();
        (!tasks.is_empty()).then(|| tasks[fastrand::usize(..tasks.len())].clone())
    }

    pub fn offer_known(&self, offer: &str, path: Path) {
        self.offer_known_at(offer, path, self.metrics.now());
    }

    pub fn offer_known_at(&self, offer: &str, path: Path, at: Duration) {
        let mut known = self.offers_known.lock().unwrap();
        let entry = known.entry(offer.to_owned()).or_insert((at, path));
        if at < entry.0 {
            *entry = (at, path);
        }
    }

    /// Records how the user first learned of the notification; true when they already knew.
    pub fn notification_seen(&self, user: &str, notification: &str, path: Path) -> bool {
        let mut all = self.notifications.lock().unwrap();
        let known = all.entry(user.to_owned()).or_default();
        if known.contains_key(notification) {
            return true;
        }
        known.insert(notification.to_owned(), path);
        false
    }
}
