//! A tasker's earnings when payments are refunded, on both backends: a payment
//! refunded in full (a cancellation) earns nothing and charges no fee, and a
//! dispute split by an operator earns the part not refunded less the fee on
//! that part, in the lines and in the totals alike.

use domain::config::Config;
use model::payments::fees;

use crate::common;

use common::{
    TestApp,
    escrow::{assert_ledger_audits, assign},
    market::{poster, tasker},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

const OPERATOR: &str = "operator@example.com";

fn with_operator(config: &mut Config) {
    config.payments_sweep_secs = 0;
    config.admin_emails = vec![OPERATOR.into()];
}

async fn earnings(app: &TestApp, token: &str) -> Value {
    let earnings = app.get("/api/me/earnings", Some(token)).await;
    assert_eq!(earnings.status, StatusCode::OK, "{:?}", earnings.body);
    earnings.body
}

fn line<'a>(earnings: &'a Value, task: &str) -> &'a Value {
    earnings["items"].as_array().unwrap().iter().find(|line| line["task_id"] == task).expect("a line for the task")
}

async fn refunded_payments_earn_only_what_was_not_refunded(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let poster = poster(&app, "poster@example.com").await;
    let tasker = tasker(&app, "tasker@example.com").await;

    let cancelled = assign(&app, &poster, &tasker, 8_000).await;
    let path = format!("/api/tasks/{}/cancellation", cancelled.task);
    assert_eq!(app.post(&path, Some(&tasker), json!({ "reason": "Ill" })).await.status, StatusCode::CREATED);
    let accepted = app.post(&format!("{path}/accept"), Some(&poster), json!({})).await;
    assert_eq!(accepted.body["status"], "cancelled", "{:?}", accepted.body);

    let split = assign(&app, &poster, &tasker, 12_345).await;
    let opened = app
        .post(
            &format!("/api/tasks/{}/dispute", split.task),
            Some(&poster),
            json!({ "reason": "poor_quality", "message": "Half of it" }),
        )
        .await;
    assert_eq!(opened.status, StatusCode::CREATED, "{:?}", opened.body);
    let decided = app
        .post(
            &format!("/api/admin/disputes/{}/resolve", opened.body["id"].as_str().unwrap()),
            Some(&operator),
            json!({ "outcome": "partial_refund", "refund_cents": 4_000, "note": "Half done" }),
        )
        .await;
    assert_eq!(decided.status, StatusCode::OK, "{:?}", decided.body);

    let held = assign(&app, &poster, &tasker, 5_000).await;

    let rest = 12_345 - 4_000;
    let (fee, payout) = (fees::fee_cents(rest), fees::payout_cents(rest));
    let mine = earnings(&app, &tasker).await;
    let refunded = line(&mine, &cancelled.task);
    assert_eq!(refunded["state"], "refunded");
    assert_eq!(refunded["payout_cents"], 0, "{refunded}");
    let partly = line(&mine, &split.task);
    assert_eq!((partly["payout_cents"].as_i64(), partly["fee_cents"].as_i64()), (Some(payout), Some(fee)), "{partly}");
    assert_eq!(line(&mine, &held.task)["state"], "held");

    let totals = &mine["totals"];
    assert_eq!(totals["held_cents"], fees::payout_cents(5_000), "{totals}");
    assert_eq!(totals["awaiting_release_cents"], 0, "{totals}");
    assert_eq!(
        totals["released_cents"].as_i64().unwrap() + totals["paid_out_cents"].as_i64().unwrap(),
        payout,
        "only the split's payout is earned: {totals}"
    );
    assert_eq!(totals["fees_cents"], fee, "no fee on what was refunded: {totals}");

    let receipts = app.get("/api/me/payments", Some(&poster)).await.body;
    let receipt = |task: &str| {
        receipts["items"].as_array().unwrap().iter().find(|r| r["task_id"] == task).cloned().expect("a receipt")
    };
    assert_eq!(receipt(&cancelled.task)["refunded_cents"], 8_000);
    assert_eq!(receipt(&split.task)["refunded_cents"], 4_000);
    assert_ledger_audits(&app).await;
    app
}

on_both_backends!(config = with_operator; refunded_payments_earn_only_what_was_not_refunded);
