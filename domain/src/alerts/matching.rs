//! Matching posted tasks against alerts, after commit and off the request
//! path. Posting a task writes a job to the `task_alert_jobs` outbox in the
//! same transaction; this worker (one per node) takes jobs when woken by a
//! post on its node and every `TASK_ALERTS_POLL_SECS` otherwise, so a job
//! whose node crashed, or that was committed while no worker ran, is still
//! matched. A job's notifications commit with the job's removal from the
//! outbox, so two nodes never notify twice and a crash never loses one.

use std::{collections::BTreeMap, time::Duration};

use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use model::{
    alerts::{keywords_match, task_cells, within_radius},
    states::TaskStatus,
};
use store::{
    alerts::{Candidate, TaskToMatch},
    db::Timestamp,
    notifications::NotificationRow,
};

use crate::{live, notices, services::Services};

const BATCH: i64 = 50;

/// Tells this node's worker that a job is waiting.
pub fn wake(state: &Services) {
    state.alert_jobs.notify_one();
}

/// This node's worker: matches what waits when woken and every `every`, until `stop` is cancelled.
pub async fn run(state: Services, every: Duration, stop: CancellationToken) {
    loop {
        if let Err(error) = run_pending(&state).await {
            tracing::warn!(?error, "task alert matching failed");
        }
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = state.alert_jobs.notified() => {}
            _ = tokio::time::sleep(every) => {}
        }
    }
}

/// Matches every task waiting in the outbox; returns how many notifications were written.
pub async fn run_pending(state: &Services) -> anyhow::Result<usize> {
    let mut written = 0;
    loop {
        let jobs = store::alerts::pending_jobs(&state.db, BATCH).await?;
        let mut failed = 0;
        for task_id in &jobs {
            match run_job(state, *task_id).await {
                Ok(count) => written += count,
                Err(error) => {
                    failed += 1;
                    tracing::warn!(?error, %task_id, "could not match a task against alerts");
                }
            }
        }
        // A full batch means more may wait; a batch that only failed waits for the next round.
        if (jobs.len() as i64) < BATCH || failed == jobs.len() {
            return Ok(written);
        }
    }
}

/// Matches one task, writes one `task_alert` per matching user and publishes them.
pub async fn run_job(state: &Services, task_id: Uuid) -> anyhow::Result<usize> {
    let now = Timestamp::now();
    let task = store::alerts::task_to_match(&state.db, task_id).await?;
    let (matched, notifications) = match &task {
        Some(task) if task.status == TaskStatus::Open => {
            let coordinates = task.lat.zip(task.lon);
            let candidates = store::alerts::candidates(&state.db, task, task_cells(task.remote, coordinates)).await?;
            let matched: Vec<Candidate> =
                candidates.into_iter().filter(|alert| alert_matches(alert, task, coordinates)).collect();
            let notifications = notifications_for(task, &matched, now);
            let notifications = within_hourly_cap(state, notifications, now).await?;
            (matched.iter().map(|alert| alert.id).collect(), notifications)
        }
        // Cancelled (or gone) before its turn: nothing to announce.
        _ => (Vec::new(), Vec::new()),
    };
    let Some(written) = store::alerts::finish_job(&state.db, task_id, &matched, notifications, now).await? else {
        return Ok(0);
    };
    live::notifications_created(state, &written).await;
    Ok(written.len())
}

/// Drops the notifications of users who had `TASK_ALERTS_PER_USER_PER_HOUR`
/// alerts in the last hour (the match itself is still recorded): a flood of
/// posts must not become a flood of pushes to anyone's devices. Two nodes
/// matching at the same moment may each let one more through.
async fn within_hourly_cap(
    state: &Services,
    notifications: Vec<NotificationRow>,
    now: Timestamp,
) -> anyhow::Result<Vec<NotificationRow>> {
    let cap = i64::from(state.config.task_alerts_per_user_per_hour);
    let users: Vec<Uuid> = notifications.iter().map(|notification| notification.user_id).collect();
    let recent = store::alerts::task_alerts_since(&state.db, &users, now.minus(Duration::from_secs(3600))).await?;
    Ok(notifications
        .into_iter()
        .filter(|notification| recent.get(&notification.user_id).copied().unwrap_or(0) < cap)
        .collect())
}

fn alert_matches(alert: &Candidate, task: &TaskToMatch, coordinates: Option<(f64, f64)>) -> bool {
    let place = match (alert.lat, alert.lon, alert.radius_km) {
        (Some(lat), Some(lon), Some(radius)) => Some((lat, lon, radius)),
        _ => None,
    };
    keywords_match(&alert.q, &task.search_text) && within_radius(place, coordinates, task.remote)
}

/// One notification per user however many of their alerts matched (named after the oldest).
fn notifications_for(task: &TaskToMatch, matched: &[Candidate], now: Timestamp) -> Vec<NotificationRow> {
    let mut first_alert_per_user: BTreeMap<Uuid, &Candidate> = BTreeMap::new();
    for alert in matched {
        first_alert_per_user
            .entry(alert.user_id)
            .and_modify(|kept| {
                if alert.id < kept.id {
                    *kept = alert;
                }
            })
            .or_insert(alert);
    }
    first_alert_per_user
        .into_values()
        .map(|alert| {
            notices::task_alert(alert.user_id, (task.id, &task.title), &task.location, task.remote, &alert.name, now)
        })
        .collect()
}
