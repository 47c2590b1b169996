//! Write skew and stale amounts around a checkout, under concurrent requests:
//! a tasker withdrawing or repricing an offer while the poster opens a
//! checkout of it. On Postgres (read committed) a check inside a subquery
//! does not see a concurrent commit, so these ran both ways before the offer
//! was frozen by its own row in the checkout's transaction.

use store::{offers, payments};

use crate::common;

use common::{
    TestApp,
    escrow::{pay, task_status},
    market::{id, make_offer, post_task, poster, tasker},
};
use std::{collections::BTreeMap, future::Future, time::Duration};

use reqwest::StatusCode;
use serde_json::json;

const ROUNDS: usize = 25;
/// Rounds per tasker, to stay under the offer churn limit (make + withdraw per minute).
const ROUNDS_PER_TASKER: usize = 5;

/// Runs both requests at once, the one going second held back by a head start that changes from
/// round to round (0–8 ms, alternating which side goes first), so that over the rounds each side
/// gets to win: a race test that only ever saw one winner proved nothing about the other.
async fn race<A: Future, B: Future>(round: usize, a: A, b: B) -> (A::Output, B::Output) {
    let head_start = Duration::from_millis(2 * (round / 2 % 5) as u64);
    if round.is_multiple_of(2) { tokio::join!(a, after(head_start, b)) } else { tokio::join!(after(head_start, a), b) }
}

async fn after<F: Future>(delay: Duration, future: F) -> F::Output {
    tokio::time::sleep(delay).await;
    future.await
}

/// Fails unless every one of `expected` outcomes happened in some round.
fn assert_each_side_won(outcomes: &BTreeMap<&str, usize>, expected: &[&str]) {
    for side in expected {
        assert!(outcomes.get(side).copied().unwrap_or(0) > 0, "{side} never happened in {ROUNDS} rounds: {outcomes:?}");
    }
}

async fn taskers(app: &TestApp, prefix: &str) -> Vec<String> {
    let mut taskers = Vec::new();
    for n in 0..ROUNDS.div_ceil(ROUNDS_PER_TASKER) {
        taskers.push(tasker(app, &format!("{prefix}-{n}@example.com")).await);
    }
    taskers
}

async fn withdrawal_beside_a_checkout_never_strands_the_task(app: TestApp) -> TestApp {
    let poster = poster(&app, "skew-poster@example.com").await;
    let taskers = taskers(&app, "skew-tasker").await;
    let mut both = 0;
    let mut outcomes = BTreeMap::new();
    for round in 0..ROUNDS {
        let tasker = &taskers[round / ROUNDS_PER_TASKER];
        let task = id(&post_task(&app, &poster, json!({ "title": format!("Skew round {round}") })).await);
        let offer = id(&make_offer(&app, tasker, &task, 6_000).await);
        let checkout_body = json!({ "task_id": task, "offer_id": offer });
        let withdraw_path = format!("/api/offers/{offer}/withdraw");
        let (checkout, withdrawn) = race(
            round,
            app.post("/api/payments/checkout-session", Some(&poster), checkout_body),
            app.post(&withdraw_path, Some(tasker), json!({})),
        )
        .await;
        if checkout.status == StatusCode::OK && withdrawn.status == StatusCode::OK {
            both += 1;
        }
        let winner = match (checkout.status == StatusCode::OK, withdrawn.status == StatusCode::OK) {
            (true, false) => "the checkout won",
            (false, true) => "the withdrawal won",
            (true, true) => "both went through",
            (false, false) => "neither went through",
        };
        *outcomes.entry(winner).or_insert(0) += 1;
        if checkout.status == StatusCode::OK {
            // The poster pays; the task must end assigned, or back open with the charge refunded.
            pay(&app, checkout.body["url"].as_str().unwrap()).await;
            let verified = app
                .post(
                    "/api/payments/verify",
                    Some(&poster),
                    json!({ "session_id": checkout.body["session_id"], "task_id": task, "offer_id": offer }),
                )
                .await;
            assert_eq!(verified.status, StatusCode::OK, "{:?}", verified.body);
        }
        let status = task_status(&app, &task).await;
        assert!(
            status == "assigned" || status == "open",
            "round {round}: the task was left {status} (checkout {:?}, withdrawal {:?})",
            checkout.status,
            withdrawn.status
        );
    }
    assert_eq!(both, 0, "a withdrawal and a checkout of the same offer both succeeded in {both} of {ROUNDS} rounds");
    assert_each_side_won(&outcomes, &["the checkout won", "the withdrawal won"]);
    app
}

async fn an_offer_repriced_beside_a_checkout_is_charged_at_the_amount_it_ends_with(app: TestApp) -> TestApp {
    let poster = poster(&app, "stale-poster@example.com").await;
    let taskers = taskers(&app, "stale-tasker").await;
    let mut outcomes = BTreeMap::new();
    for round in 0..ROUNDS {
        let tasker = &taskers[round / ROUNDS_PER_TASKER];
        let task = id(&post_task(&app, &poster, json!({ "title": format!("Stale round {round}") })).await);
        let offer = id(&make_offer(&app, tasker, &task, 6_000).await);
        let checkout_body = json!({ "task_id": task, "offer_id": offer });
        let edit_path = format!("/api/offers/{offer}");
        let (checkout, edited) = race(
            round,
            app.post("/api/payments/checkout-session", Some(&poster), checkout_body),
            app.patch(&edit_path, Some(tasker), json!({ "amount_cents": 9_000 })),
        )
        .await;
        let offer_row = offers::offer(&app.server.state.db, offer.parse().unwrap()).await.unwrap().unwrap();
        let charged = payments::payments_for_task(&app.server.state.db, task.parse().unwrap()).await.unwrap();
        let winner = match (charged.first().map(|payment| payment.amount_cents), edited.status == StatusCode::OK) {
            (Some(6_000), false) => "the checkout won at the old amount",
            (Some(9_000), true) => "the edit won and the checkout charged the new amount",
            (None, true) => "the edit won and the checkout was refused",
            _ => "something else",
        };
        *outcomes.entry(winner).or_insert(0) += 1;
        for payment in charged {
            assert_eq!(
                payment.amount_cents, offer_row.amount_cents,
                "round {round}: the checkout charges {} for an offer now at {} (checkout {:?}, edit {:?})",
                payment.amount_cents, offer_row.amount_cents, checkout.status, edited.status
            );
        }
    }
    let edit_won = outcomes.keys().filter(|outcome| outcome.starts_with("the edit won")).count();
    assert!(edit_won > 0, "the edit never won in {ROUNDS} rounds: {outcomes:?}");
    assert_each_side_won(&outcomes, &["the checkout won at the old amount"]);
    app
}

on_both_backends!(
    withdrawal_beside_a_checkout_never_strands_the_task,
    an_offer_repriced_beside_a_checkout_is_charged_at_the_amount_it_ends_with,
);
