//! Reaching people who are not looking (docs/architecture.md, decision 9): the worker
//! loops that drain the delivery outbox (`store::deliveries`) on every node.
//! Pushes go out as soon as they are claimed; email lines wait `EMAIL_DELAY`
//! and go out as one digest per user (`digest`). Failures are retried with
//! backoff (honouring the push service's `Retry-After`), dead subscriptions
//! are dropped, and rows that keep failing are parked.

pub mod digest;
pub mod endpoint;
pub mod hosts;
pub mod preferences;
pub mod push;
pub mod vapid;
mod warnings;

use std::time::Duration;

use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use self::{
    digest::UnsubscribeTokens,
    hosts::{Admission, Health, HostGates},
    push::{DeviceKeys, HIGH_URGENCY_KINDS, PushPayload, PushSender, Sent},
};
use store::{
    db::{Db, Timestamp, new_id},
    deliveries::{self, ClaimedPush, PushOutcome},
    push_subscriptions,
};

use crate::{config::Config, mail::Mailer};

/// Pushes in flight on this node at once (each host gets at most [`hosts::PER_HOST_IN_FLIGHT`]).
pub const PUSHES_IN_FLIGHT: usize = 64;
/// When a push whose host has its share of slots is looked at again.
const BUSY_HOST_RETRY: Duration = Duration::from_secs(1);
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
    /// Free push slots on this node ([`PUSHES_IN_FLIGHT`]).
    pub in_flight: std::sync::Arc<Semaphore>,
    pub hosts: HostGates,
}

/// What the delivery worker uses of its node (not the whole `Services`,
/// which holds a [`Delivery`] itself).
#[derive(Clone)]
pub struct Handles {
    pub db: Db,
    pub delivery: std::sync::Arc<Delivery>,
    pub mailer: Mailer,
    pub config: std::sync::Arc<Config>,
    /// Base of links in emails, without a trailing slash.
    pub public_url: std::sync::Arc<str>,
    /// Where each push is sent from, so shutdown waits for the ones under way.
    pub background: tokio_util::task::TaskTracker,
}

impl Handles {
    pub fn link(&self, path_and_query: &str) -> String {
        format!("{}{path_and_query}", self.public_url)
    }
}

impl Delivery {
    pub fn new(push: PushSender, unsubscribe: UnsubscribeTokens) -> Self {
        Self {
            push,
            unsubscribe,
            in_flight: std::sync::Arc::new(Semaphore::new(PUSHES_IN_FLIGHT)),
            hosts: HostGates::default(),
        }
    }
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
pub async fn run(state: Handles, stop: CancellationToken) {
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
                // More are due: claim again as soon as a slot frees (or a poll interval passed).
                Ok(true) => {
                    let slot = state.delivery.in_flight.acquire();
                    let _ = tokio::time::timeout(state.config.delivery_poll_interval, slot).await;
                }
                Ok(false) => break,
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

/// Claims the pushes due at `now` (as many as there are free slots) and starts
/// sending each; every send records its own outcome when it ends, so a push
/// service that is slow to answer holds up nothing but its own pushes. Pushes
/// to a host that has its share of slots, or is parked, are put back without
/// an attempt counted. True when more may be due (every free slot was filled);
/// with no slot free it waits for the next tick.
pub async fn push_pass(state: &Handles, now: Timestamp) -> anyhow::Result<bool> {
    let free = state.delivery.in_flight.available_permits();
    if free == 0 {
        return Ok(false);
    }
    let claim = new_id();
    let pushes =
        deliveries::claim_pushes(&state.db, claim, now, now.plus(PUSH_LEASE), free as i64, &HIGH_URGENCY_KINDS).await?;
    let claimed = pushes.len();
    let mut deferred = Vec::new();
    for push in pushes {
        let permit = match state.delivery.hosts.admit(&endpoint::host_key(&push.endpoint)) {
            Admission::Go(permit) => permit,
            Admission::Busy => {
                deferred.push((push, now.plus(BUSY_HOST_RETRY)));
                continue;
            }
            Admission::Parked(left) => {
                deferred.push((push, now.plus(left)));
                continue;
            }
        };
        let Ok(slot) = state.delivery.in_flight.clone().try_acquire_owned() else {
            deferred.push((push, now.plus(BUSY_HOST_RETRY)));
            continue;
        };
        let state = state.clone();
        state.background.clone().spawn(async move {
            let mut permit = permit;
            let sent = send_one(&state, &push).await;
            permit.record(match &sent {
                Sent::Unreachable { .. } => Health::Unreachable,
                Sent::Refused { .. } => Health::NotTried,
                _ => Health::Answered,
            });
            drop(permit);
            if let Err(error) = record_sent(&state, claim, &push, sent).await {
                tracing::warn!(?error, "could not record a push's outcome; it is retried when its lease ends");
            }
            drop(slot);
        });
    }
    if !deferred.is_empty() {
        let outcomes: Vec<(&ClaimedPush, PushOutcome)> =
            deferred.iter().map(|(push, at)| (push, PushOutcome::Deferred { at: *at })).collect();
        deliveries::record_pushes(&state.db, claim, &outcomes, now).await?;
    }
    Ok(claimed == free)
}

async fn record_sent(state: &Handles, claim: uuid::Uuid, push: &ClaimedPush, sent: Sent) -> anyhow::Result<()> {
    let now = Timestamp::now();
    let attempts = push.attempts + 1;
    let (outcome, metric) = match &sent {
        Sent::Delivered => (PushOutcome::Sent, "sent"),
        Sent::Gone => {
            metrics::counter!("notification_deliveries_total", "channel" => "push", "outcome" => "gone").increment(1);
            tracing::info!(subscription_id = %push.subscription_id, "push subscription gone; dropping it");
            push_subscriptions::delete(&state.db, push.subscription_id).await?;
            return Ok(());
        }
        Sent::Retry { error, .. } | Sent::Unreachable { error } | Sent::Refused { error }
            if attempts >= PUSH_MAX_ATTEMPTS =>
        {
            (PushOutcome::Parked { error }, "failed")
        }
        Sent::Retry { after, error } => {
            (PushOutcome::Retry { at: now.plus(retry_delay(attempts, *after)), error }, "retried")
        }
        Sent::Unreachable { error } => {
            (PushOutcome::Retry { at: now.plus(retry_delay(attempts, None)), error }, "retried")
        }
        Sent::Refused { error } => (PushOutcome::Parked { error }, "failed"),
    };
    if metric != "sent" {
        let host = endpoint::service_host(&push.endpoint);
        match warnings::may_warn(&host) {
            Some(held_back) => tracing::warn!(
                subscription_id = %push.subscription_id, %host, attempts, ?sent, held_back, "push not delivered"
            ),
            None => {
                tracing::debug!(subscription_id = %push.subscription_id, %host, attempts, ?sent, "push not delivered")
            }
        }
    }
    metrics::counter!("notification_deliveries_total", "channel" => "push", "outcome" => metric).increment(1);
    deliveries::record_pushes(&state.db, claim, &[(push, outcome)], now).await?;
    Ok(())
}

async fn send_one(state: &Handles, push: &ClaimedPush) -> Sent {
    let payload = PushPayload {
        id: push.notification_id,
        kind: push.kind.as_str(),
        title: &push.title,
        message: &push.message,
        link: push.link.as_deref(),
        created_at: push.created_at,
    };
    let keys = DeviceKeys { p256dh: &push.p256dh, auth: &push.auth };
    state.delivery.push.send(&push.endpoint, &keys, &payload).await
}

async fn record_depth(state: &Handles) {
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
