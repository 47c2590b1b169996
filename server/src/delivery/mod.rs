//! Reaching people who are not looking (docs/architecture.md, decision 9): the worker
//! loops that drain the delivery outbox (`store::deliveries`) on every node.
//! Pushes go out as soon as they are claimed; email lines wait `EMAIL_DELAY`
//! and go out as one digest per user (`digest`). Failures are retried with
//! backoff (honouring the push service's `Retry-After`), dead subscriptions
//! are dropped, and rows that keep failing are parked.

pub mod digest;
pub mod endpoint;
pub mod preferences;
pub mod push;
pub mod vapid;

use std::time::Duration;

use futures_util::{StreamExt, stream};
use tokio_util::sync::CancellationToken;

use self::{
    digest::UnsubscribeTokens,
    push::{DeviceKeys, PushPayload, PushSender, Sent},
};
use crate::{
    db::{Timestamp, new_id},
    state::AppState,
    store::{
        deliveries::{self, ClaimedPush, PushOutcome},
        push_subscriptions,
    },
};

/// Pushes claimed at once, and sent at once (each to its own device).
const PUSH_BATCH: i64 = 256;
const PUSHES_IN_FLIGHT: usize = 64;
/// Longer than a push takes at worst (the client's timeout), so a live node never loses its claim.
const PUSH_LEASE: Duration = Duration::from_secs(60);
/// Attempts before a push is parked (about a day with [`retry_delay`]).
const PUSH_MAX_ATTEMPTS: i32 = 12;
const FIRST_RETRY: Duration = Duration::from_secs(10);
const LONGEST_RETRY: Duration = Duration::from_secs(4 * 3600);

/// What the delivery channels need, built once at start-up.
pub struct Delivery {
    pub push: PushSender,
    pub unsubscribe: UnsubscribeTokens,
}

/// How long to wait after the `attempts`-th failure: 10 s, 20 s, 40 s, … up to
/// 4 h, or longer when the service asked for it with `Retry-After`.
pub fn retry_delay(attempts: i32, asked: Option<Duration>) -> Duration {
    let doublings = attempts.clamp(1, 20) as u32 - 1;
    let backoff = FIRST_RETRY.saturating_mul(2u32.saturating_pow(doublings)).min(LONGEST_RETRY);
    match asked {
        // A push service's Retry-After replaces our guess (within reason).
        Some(asked) => asked.clamp(Duration::from_secs(1), LONGEST_RETRY),
        None => backoff,
    }
}

/// Runs the delivery loops on this node until `stop` is cancelled (the server shuts down).
pub async fn run(state: AppState, stop: CancellationToken) {
    let mut ticker = tokio::time::interval(state.config.delivery_poll_interval);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = ticker.tick() => {}
        }
        // Drain pushes without waiting for the next tick while full batches keep coming.
        loop {
            match push_pass(&state, Timestamp::now()).await {
                Ok(claimed) if claimed as i64 == PUSH_BATCH => continue,
                Ok(_) => break,
                Err(error) => {
                    tracing::warn!(?error, "push delivery pass failed");
                    break;
                }
            }
        }
        if let Err(error) = digest::pass(&state, Timestamp::now()).await {
            tracing::warn!(?error, "email digest pass failed");
        }
        record_depth(&state).await;
    }
}

/// Claims and sends the pushes due at `now`, then records every outcome at once; returns how many were claimed.
pub async fn push_pass(state: &AppState, now: Timestamp) -> anyhow::Result<usize> {
    let claim = new_id();
    let pushes = deliveries::claim_pushes(&state.db, claim, now, now.plus(PUSH_LEASE), PUSH_BATCH).await?;
    let claimed = pushes.len();
    let results: Vec<(ClaimedPush, Sent)> = stream::iter(pushes)
        .map(|push| {
            let state = state.clone();
            async move {
                let sent = send_one(&state, &push).await;
                (push, sent)
            }
        })
        .buffer_unordered(PUSHES_IN_FLIGHT)
        .collect()
        .await;
    let now = Timestamp::now();
    let mut outcomes = Vec::with_capacity(results.len());
    for (push, sent) in &results {
        let attempts = push.attempts + 1;
        let (outcome, metric) = match sent {
            Sent::Delivered => (PushOutcome::Sent, "sent"),
            Sent::Gone => {
                metrics::counter!("notification_deliveries_total", "channel" => "push", "outcome" => "gone")
                    .increment(1);
                tracing::info!(subscription_id = %push.subscription_id, "push subscription gone; dropping it");
                push_subscriptions::delete(&state.db, push.subscription_id).await?;
                continue;
            }
            Sent::Retry { error, .. } | Sent::Refused { error } if attempts >= PUSH_MAX_ATTEMPTS => {
                (PushOutcome::Parked { error }, "failed")
            }
            Sent::Retry { after, error } => {
                (PushOutcome::Retry { at: now.plus(retry_delay(attempts, *after)), error }, "retried")
            }
            Sent::Refused { error } => (PushOutcome::Parked { error }, "failed"),
        };
        if metric != "sent" {
            tracing::warn!(subscription_id = %push.subscription_id, attempts, ?sent, "push not delivered");
        }
        metrics::counter!("notification_deliveries_total", "channel" => "push", "outcome" => metric).increment(1);
        outcomes.push((push, outcome));
    }
    deliveries::record_pushes(&state.db, claim, &outcomes, now).await?;
    Ok(claimed)
}

async fn send_one(state: &AppState, push: &ClaimedPush) -> Sent {
    let payload = PushPayload {
        id: push.notification_id,
        kind: &push.kind,
        title: &push.title,
        message: &push.message,
        link: push.link.as_deref(),
        created_at: push.created_at,
    };
    let keys = DeviceKeys { p256dh: &push.p256dh, auth: &push.auth };
    state.delivery.push.send(&push.endpoint, &keys, &payload).await
}

async fn record_depth(state: &AppState) {
    let now = Timestamp::now();
    match deliveries::depth(&state.db, now).await {
        Ok(depth) => {
            let age = |oldest: Option<Timestamp>| oldest.map_or(0.0, |due| (now.0 - due.0).max(0) as f64 / 1000.0);
            metrics::gauge!("notification_outbox_depth", "channel" => "push").set(depth.push_pending as f64);
            metrics::gauge!("notification_outbox_depth", "channel" => "email").set(depth.email_pending as f64);
            metrics::gauge!("notification_outbox_oldest_due_seconds", "channel" => "push")
                .set(age(depth.push_oldest_due));
            metrics::gauge!("notification_outbox_oldest_due_seconds", "channel" => "email")
                .set(age(depth.email_oldest_due));
        }
        Err(error) => tracing::warn!(%error, "could not measure the delivery outbox"),
    }
}
