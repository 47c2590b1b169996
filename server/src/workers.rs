//! The background work of a node: every loop that runs beside the requests (payments sweep,
//! alert matching, delivery, ticket and rate-limit cleanup) is spawned here, into one tracker
//! with one stop token. Shutdown cancels the token and waits for the tracker, so the pool is
//! closed only after the last worker has finished what it was doing.
//!
//! The cleanups get only the handle they use; the sweep, alert matching and delivery get the
//! `AppState`, because they run the same transitions and publications as the handlers do.
//!
//! A worker finishes its current pass before it stops: a pass is one bounded batch, and its
//! outbox rows make it safe to cut anyway, but finishing spares the next node a lease to wait out.

use std::time::Duration;

use tokio_util::{sync::CancellationToken, task::TaskTracker};

use domain::{alerts, delivery, payments::sweep, rate_limit::Limiter};
use store::db::Db;

use crate::{
    http::{realtime::delete_expired_tickets, state::AppState},
    task_views,
};

/// The tracker and stop token of one node's loops, and the tracker of the work requests and
/// sockets leave behind (`Services::background`); cheap to clone.
#[derive(Clone, Default)]
pub struct Workers {
    tracker: TaskTracker,
    stop: CancellationToken,
    background: TaskTracker,
}

impl Workers {
    /// Starts every worker the configuration turns on.
    pub fn start(state: &AppState) -> Self {
        let workers = Self { background: state.background.clone(), ..Self::default() };
        workers.spawn(|stop| forget_ended_windows(state.limiter.clone(), stop));
        workers.spawn(|stop| delete_expired_tickets(state.db.clone(), stop));
        workers.spawn(|stop| refresh_planner_statistics(state.db.clone(), stop));
        workers.spawn(|stop| delivery::run(state.delivery_handles(), stop));
        workers.spawn(|stop| task_views::run(state.task_views.clone(), state.db.clone(), stop));
        // 0 turns the polling workers off: tests drive them by hand.
        if state.config.payments_sweep_secs > 0 {
            let every = Duration::from_secs(state.config.payments_sweep_secs);
            workers.spawn(|stop| sweep::run(state.services.clone(), every, stop));
        }
        if state.config.task_alerts_poll_secs > 0 {
            let every = Duration::from_secs(state.config.task_alerts_poll_secs);
            workers.spawn(|stop| alerts::matching::run(state.services.clone(), every, stop));
        }
        workers
    }

    fn spawn<F>(&self, worker: impl FnOnce(CancellationToken) -> F)
    where
        F: Future<Output = ()> + Send + 'static,
    {
        self.tracker.spawn(worker(self.stop.clone()));
    }

    /// Asks every worker to stop, and waits until they all have and the work left behind by
    /// requests (a mail being sent) is done.
    pub async fn stop(&self) {
        self.stop.cancel();
        self.tracker.close();
        self.background.close();
        self.tracker.wait().await;
        self.background.wait().await;
    }

    /// Workers still running.
    pub fn running(&self) -> usize {
        self.tracker.len()
    }

    /// Work left behind by requests and sockets that is still running.
    pub fn background_running(&self) -> usize {
        self.background.len()
    }

    /// True once [`Workers::stop`] was called: no worker can be added any more.
    pub fn is_stopping(&self) -> bool {
        self.tracker.is_closed()
    }
}

/// Keeps SQLite's planner statistics current as the tables grow, every hour ([`Db::refresh_planner_statistics`]).
async fn refresh_planner_statistics(db: Db, stop: CancellationToken) {
    let mut interval = tokio::time::interval(Duration::from_secs(60 * 60));
    interval.tick().await; // The first tick is now, and start-up has just gathered them.
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = interval.tick() => {
                if let Err(error) = db.refresh_planner_statistics().await {
                    tracing::warn!(error = ?error, "could not gather SQLite's planner statistics");
                }
            }
        }
    }
}

/// Forgets the local rate-limit windows that have ended, every minute.
async fn forget_ended_windows(limiter: Limiter, stop: CancellationToken) {
    let mut interval = tokio::time::interval(Duration::from_secs(60));
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = interval.tick() => limiter.forget_ended_windows(),
        }
    }
}
