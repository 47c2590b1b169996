//! Write skew and stale amounts around a checkout, under concurrent requests:
//! a tasker withdrawing or repricing an offer while the poster opens a
//! checkout of it. On Postgres (read committed) a check inside a subquery
//! does not see a concurrent commit, so these ran both ways before the offer
//! was frozen by its own row in the checkout's transaction.

mod common;

use common::{
    TestApp,
    escrow::{pay, task_status},
    market::{id, make_offer, post_task, poster, tasker},
};
use reqwest::StatusCode;
use serde_json::json;
use server::store::{offers, payments};

const ROUNDS: usize = 25;
/// Rounds per tasker, to stay under the offer churn limit (make + withdraw per minute).
const ROUNDS_PER_TASKER: usize = 5;

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
    for round in 0..ROUNDS {
        let tasker = &taskers[round / ROUNDS_PER_TASKER];
        let task = id(&post_task(&app, &poster, json!({ "title": format!("Skew round {round}") })).await);
        let offer = id(&make_offer(&app, tasker, &task, 6_000).await);
        let checkout_body = json!({ "task_id": task, "offer_id": offer });
        let withdraw_path = format!("/api/offers/{offer}/withdraw");
        let (checkout, withdrawn) = tokio::join!(
            app.post("/api/payments/checkout-session", Some(&poster), checkout_body),
            app.post(&withdraw_path, Some(tasker), json!({})),
        );
        if checkout.status == StatusCode::OK && withdrawn.status == StatusCode::OK {
            both += 1;
        }
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
    app
}

async fn an_offer_repriced_beside_a_checkout_is_charged_at_the_amount_it_ends_with(app: TestApp) -> TestApp {
    let poster = poster(&app, "stale-poster@example.com").await;
    let taskers = taskers(&app, "stale-tasker").await;
    for round in 0..ROUNDS {
        let tasker = &taskers[round / ROUNDS_PER_TASKER];
        let task = id(&post_task(&app, &poster, json!({ "title": format!("Stale round {round}") })).await);
        let offer = id(&make_offer(&app, tasker, &task, 6_000).await);
        let checkout_body = json!({ "task_id": task, "offer_id": offer });
        let edit_path = format!("/api/offers/{offer}");
        let (checkout, edited) = tokio::join!(
            app.post("/api/payments/checkout-session", Some(&poster), checkout_body),
            app.patch(&edit_path, Some(tasker), json!({ "amount_cents": 9_000 })),
        );
        let offer_row = offers::offer(&app.server.state.db, offer.parse().unwrap()).await.unwrap().unwrap();
        for payment in payments::payments_for_task(&app.server.state.db, task.parse().unwrap()).await.unwrap() {
            assert_eq!(
                payment.amount_cents, offer_row.amount_cents,
                "round {round}: the checkout charges {} for an offer now at {} (checkout {:?}, edit {:?})",
                payment.amount_cents, offer_row.amount_cents, checkout.status, edited.status
            );
        }
    }
    app
}

on_both_backends!(
    withdrawal_beside_a_checkout_never_strands_the_task,
    an_offer_repriced_beside_a_checkout_is_charged_at_the_amount_it_ends_with,
);
