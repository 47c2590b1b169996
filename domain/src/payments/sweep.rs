//! The background sweep, run every minute on every node: checkouts pending
//! past their 30 minutes are closed (or confirmed, when paid at the last
//! second) and processing ones re-checked, completion requests unanswered for
//! 7 days are released (never while a dispute or a cancellation request is
//! open), cancellation requests unanswered for 48 h cancel the task (or, a
//! poster's after the tasker asked to be paid, become a dispute: the order of
//! the two steps never changes an outcome), and provider calls owed after a commit
//! are retried. Every work list is ordered by when its row became due and
//! every failure pushes its row back with exponential backoff, so rows that
//! keep failing never starve the others. Every step is a conditional
//! transition plus an idempotent provider call, so several nodes sweeping at
//! once do each thing once.

use std::time::Duration;

use serde::Serialize;
use tokio_util::sync::CancellationToken;

use model::{
    payments::process::{self, Event, Timer},
    states::PaymentStatus,
};
use store::{cancellations, db::Timestamp, payments, provider_calls, tasks};

use crate::{
    payments::{
        calls,
        escrow::{self, Lapsed},
    },
    services::Services,
};

/// The process's timers (`model::payments::process::Timer`) under the names the sweep knows them by.
pub const AUTO_RELEASE_AFTER: Duration = Timer::AutoRelease.after();
pub const CANCELLATION_ANSWER_WINDOW: Duration = Timer::CancellationAnswer.after();
const BATCH: i64 = 100;

#[derive(Debug, Default, PartialEq, Eq, Serialize)]
pub struct SweepReport {
    /// Pending or processing checkouts whose state was asked of the provider.
    pub checkouts_checked: usize,
    /// Of those, checks that failed (pushed back with backoff).
    pub checks_failed: usize,
    pub auto_released: usize,
    pub cancellations_lapsed: usize,
    /// Poster's requests unanswered after the tasker asked to be paid: disputes now.
    pub cancellations_escalated: usize,
    /// Price increases unanswered for 72 hours.
    pub price_increases_lapsed: usize,
    /// Date proposals unanswered for 48 hours.
    pub reschedules_lapsed: usize,
    pub provider_calls_retried: usize,
    /// Of those, calls that succeeded.
    pub provider_calls_succeeded: usize,
}

/// One pass as of `now` (tests pass a time in the future instead of waiting).
pub async fn sweep(state: &Services, now: Timestamp) -> anyhow::Result<SweepReport> {
    let mut report = SweepReport::default();
    for payment in payments::due_checks(&state.db, now, BATCH).await? {
        report.checkouts_checked += 1;
        let (id, attempts, processing) =
            (payment.id, payment.check_attempts + 1, payment.status == PaymentStatus::Processing);
        if let Err(error) = escrow::check(state, payment).await {
            tracing::warn!(?error, payment_id = %id, "could not check a checkout with the provider");
            report.checks_failed += 1;
            payments::check_later(&state.db, id, now.plus(calls::retry_delay(attempts))).await?;
        } else if processing {
            // Still processing (or just settled, which clears the check): look again later.
            payments::check_later(
                &state.db,
                id,
                now.plus(escrow::PROCESSING_RECHECK.max(calls::retry_delay(attempts))),
            )
            .await?;
        }
    }
    auto_release_due(state, now, &mut report).await?;
    answer_lapsed_cancellations(state, now, &mut report).await?;
    provider_calls::mark_holds(&state.db, now).await?;
    report.price_increases_lapsed = super::increases::lapse_due(state, now, BATCH).await?;
    report.reschedules_lapsed = crate::marketplace::reschedules::lapse_due(state, now, BATCH).await?;
    for call in provider_calls::due(&state.db, now, BATCH, state.config.payouts_require_identity).await? {
        report.provider_calls_retried += 1;
        if calls::run(state, &call).await {
            report.provider_calls_succeeded += 1;
        }
    }
    Ok(report)
}

/// Releases tasks whose completion request went unanswered for 7 days.
pub async fn auto_release_due(state: &Services, now: Timestamp, report: &mut SweepReport) -> anyhow::Result<()> {
    for payment in payments::held_completion_requested_before(&state.db, now.minus(AUTO_RELEASE_AFTER), BATCH).await? {
        let Some(task) = tasks::task(&state.db, payment.task_id).await? else { continue };
        if process::allows(Event::AutoRelease, task.status, task.open_dispute_id.is_some()).is_none() {
            continue;
        }
        if escrow::release(state, &task, None, None).await.ok().flatten().is_some() {
            report.auto_released += 1;
        }
    }
    Ok(())
}

/// Answers the cancellation requests nobody answered within 48 h.
pub async fn answer_lapsed_cancellations(
    state: &Services,
    now: Timestamp,
    report: &mut SweepReport,
) -> anyhow::Result<()> {
    for request in cancellations::cancellations_lapsed(&state.db, now.minus(CANCELLATION_ANSWER_WINDOW), BATCH).await? {
        let Some(task) = tasks::task(&state.db, request.task_id).await? else { continue };
        match escrow::lapse_cancellation(state, &task, &request).await {
            Ok(Lapsed::Cancelled) => report.cancellations_lapsed += 1,
            Ok(Lapsed::Escalated) => report.cancellations_escalated += 1,
            Ok(Lapsed::Unchanged) => {}
            Err(error) => tracing::warn!(?error, request_id = %request.id, "could not answer a lapsed cancellation"),
        }
    }
    Ok(())
}

/// Sweeps every `every` until `stop` is cancelled.
pub async fn run(state: Services, every: Duration, stop: CancellationToken) {
    let mut ticker = tokio::time::interval(every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = ticker.tick() => {}
        }
        match sweep(&state, Timestamp::now()).await {
            Ok(report) if report != SweepReport::default() => tracing::info!(?report, "payments sweep"),
            Ok(_) => {}
            Err(error) => tracing::warn!(?error, "payments sweep failed"),
        }
    }
}
