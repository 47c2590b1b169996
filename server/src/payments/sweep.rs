//! The background sweep, run every minute on every node: abandoned checkouts
//! (30 min) go back to open, completion requests unanswered for 7 days are
//! released, cancellation requests unanswered for 48 h cancel the task, and
//! provider calls that failed after commit are retried. Every step is a
//! conditional transition plus an idempotent provider call, so several nodes
//! sweeping at once do each thing once.

use std::time::Duration;

use serde::Serialize;

use super::lifecycle;
use crate::{
    db::Timestamp,
    state::AppState,
    store::{
        lifecycle::{self as store, Answer},
        payments::{self, status},
        tasks,
    },
};

pub const AUTO_RELEASE_AFTER: Duration = Duration::from_secs(7 * 24 * 3600);
pub const CANCELLATION_ANSWER_WINDOW: Duration = Duration::from_secs(48 * 3600);
const EVERY: Duration = Duration::from_secs(60);
const BATCH: i64 = 100;

#[derive(Debug, Default, PartialEq, Eq, Serialize)]
pub struct SweepReport {
    pub checkouts_closed: usize,
    pub auto_released: usize,
    pub cancellations_lapsed: usize,
    pub provider_calls_retried: usize,
}

/// One pass as of `now` (tests pass a time in the future instead of waiting).
pub async fn sweep(state: &AppState, now: Timestamp) -> anyhow::Result<SweepReport> {
    let mut report = SweepReport::default();
    for payment in payments::expired_pending(&state.db, now, BATCH).await? {
        match lifecycle::abandon(state, payment).await {
            Ok(()) => report.checkouts_closed += 1,
            Err(error) => tracing::warn!(?error, "could not close an abandoned checkout"),
        }
    }
    for payment in payments::held_completion_requested_before(&state.db, now.minus(AUTO_RELEASE_AFTER), BATCH).await? {
        let Some(task) = tasks::task(&state.db, payment.task_id).await? else { continue };
        if lifecycle::release(state, &task, None).await.ok().flatten().is_some() {
            report.auto_released += 1;
        }
    }
    for request in store::cancellations_lapsed(&state.db, now.minus(CANCELLATION_ANSWER_WINDOW), BATCH).await? {
        let Some(task) = tasks::task(&state.db, request.task_id).await? else { continue };
        if lifecycle::answer_cancellation(state, &task, &request, Answer::Lapse).await.unwrap_or(false) {
            report.cancellations_lapsed += 1;
        }
    }
    for payment in payments::provider_calls_owed(&state.db, BATCH).await? {
        match payment.status.as_str() {
            status::RELEASED => lifecycle::transfer_now(state, &payment).await,
            status::REFUNDED => lifecycle::refund_now(state, &payment).await,
            _ => continue,
        }
        report.provider_calls_retried += 1;
    }
    Ok(report)
}

pub fn spawn(state: AppState) {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(EVERY);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            match sweep(&state, Timestamp::now()).await {
                Ok(report) if report != SweepReport::default() => tracing::info!(?report, "payments sweep"),
                Ok(_) => {}
                Err(error) => tracing::warn!(?error, "payments sweep failed"),
            }
        }
    });
}
