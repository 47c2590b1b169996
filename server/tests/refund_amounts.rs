//! The amount of every provider call on the refund paths, on both backends: a
//! cancellation accepted or lapsed, and an operator's full or partial refund of
//! a dispute each send the provider exactly what the ledger says went back (and
//! the tasker exactly the rest less the fee), and the sandbox provider moves
//! exactly that. A refund of nothing, or of more than the charge, is refused.

use domain::{
    config::Config,
    payments::{PaymentError, RefundRequest, TransferRequest, sweep},
};
use model::payments::fees;
use store::{db::Timestamp, payments::PaymentRow, sandbox_sessions};

use crate::common;

use std::time::Duration;

use common::{
    Response, TestApp,
    escrow::{Assigned, assert_ledger_audits, assigned_task, calls_of, kept_payment, task_status},
    market::poster,
    rows::{assert_task_unchanged, task_snapshot},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

const OPERATOR: &str = "operator@example.com";

fn with_operator(config: &mut Config) {
    config.payments_sweep_secs = 0;
    config.admin_emails = vec![OPERATOR.into()];
}

/// The task's payment with its provider calls as `(kind, amount, status)`, sorted.
async fn calls(app: &TestApp, payment: &PaymentRow) -> Vec<(String, i64, String)> {
    let mut calls: Vec<_> = calls_of(app, payment.id)
        .await
        .into_iter()
        .map(|call| (call.kind.to_string(), call.amount_cents, call.status.to_string()))
        .collect();
    calls.sort();
    calls
}

/// What the sandbox provider moved out of the payment's charge: (refunded, transferred).
async fn sandbox_moved(app: &TestApp, payment: &PaymentRow) -> (i64, i64) {
    let session = sandbox_sessions::session(&app.server.state.db, &payment.session_id).await.unwrap().unwrap();
    (session.refunded_cents, session.transferred_cents)
}

/// A refunded payment: the poster got all of `amount` back, by one call the sandbox carried out.
async fn assert_refunded_in_full(app: &TestApp, task: &str, amount: i64) {
    let payment = kept_payment(app, task).await;
    assert_eq!((payment.status.as_str(), payment.refunded_cents), ("refunded", amount));
    assert_eq!(calls(app, &payment).await, [("refund".to_owned(), amount, "done".to_owned())]);
    assert_eq!(sandbox_moved(app, &payment).await, (amount, 0), "what the sandbox refunded and transferred");
    assert_ledger_audits(app).await;
}

async fn ask_to_cancel(app: &TestApp, assigned: &Assigned, by: &str) {
    let path = format!("/api/tasks/{}/cancellation", assigned.task);
    let asked = app.post(&path, Some(by), json!({ "reason": "Plans changed" })).await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
}

async fn an_accepted_cancellation_refunds_the_whole_amount(app: TestApp) -> TestApp {
    // An amount whose fee is not round, so amount less fee and amount cannot be mistaken.
    let assigned = assigned_task(&app, 8_001).await;
    ask_to_cancel(&app, &assigned, &assigned.poster).await;
    let accepted =
        app.post(&format!("/api/tasks/{}/cancellation/accept", assigned.task), Some(&assigned.tasker), json!({})).await;
    assert_eq!(accepted.body["status"], "cancelled", "{:?}", accepted.body);
    assert_refunded_in_full(&app, &assigned.task, 8_001).await;
    app
}

async fn a_lapsed_cancellation_refunds_the_whole_amount(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 9_999).await;
    ask_to_cancel(&app, &assigned, &assigned.tasker).await;
    let later = Timestamp::now().plus(sweep::CANCELLATION_ANSWER_WINDOW + Duration::from_secs(60));
    assert_eq!(sweep::sweep(&app.server.state, later).await.unwrap().cancellations_lapsed, 1);
    assert_eq!(task_status(&app, &assigned.task).await, "cancelled");
    assert_refunded_in_full(&app, &assigned.task, 9_999).await;
    app
}

async fn open_dispute(app: &TestApp, assigned: &Assigned) -> Value {
    let opened = app
        .post(
            &format!("/api/tasks/{}/dispute", assigned.task),
            Some(&assigned.poster),
            json!({ "reason": "no_show", "message": "Nobody came" }),
        )
        .await;
    assert_eq!(opened.status, StatusCode::CREATED, "{:?}", opened.body);
    opened.body
}

async fn resolve(app: &TestApp, operator: &str, dispute: &Value, body: Value) -> Response {
    app.post(&format!("/api/admin/disputes/{}/resolve", dispute["id"].as_str().unwrap()), Some(operator), body).await
}

async fn a_dispute_refund_returns_the_whole_amount_and_a_split_exactly_its_parts(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let refunded = assigned_task(&app, 7_777).await;
    let dispute = open_dispute(&app, &refunded).await;
    let decided = resolve(&app, &operator, &dispute, json!({ "outcome": "refund", "note": "No show" })).await;
    assert_eq!(decided.status, StatusCode::OK, "{:?}", decided.body);
    assert_refunded_in_full(&app, &refunded.task, 7_777).await;

    let split = assigned_task(&app, 10_001).await;
    let dispute = open_dispute(&app, &split).await;
    let body = json!({ "outcome": "partial_refund", "refund_cents": 3_333, "note": "Half done" });
    assert_eq!(resolve(&app, &operator, &dispute, body).await.status, StatusCode::OK);
    let payment = kept_payment(&app, &split.task).await;
    let rest = 10_001 - 3_333;
    let payout = rest - fees::fee_cents(rest);
    assert_eq!((payment.status.as_str(), payment.refunded_cents), ("released", 3_333));
    assert_eq!(
        calls(&app, &payment).await,
        [("refund".to_owned(), 3_333, "done".to_owned()), ("transfer".to_owned(), payout, "done".to_owned())]
    );
    assert_eq!(sandbox_moved(&app, &payment).await, (3_333, payout));
    assert_ledger_audits(&app).await;
    app
}

async fn a_partial_refund_of_nothing_or_less_is_refused_and_changes_nothing(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let assigned = assigned_task(&app, 5_000).await;
    let dispute = open_dispute(&app, &assigned).await;
    let before = task_snapshot(&app, &assigned.task).await;
    for cents in [json!(0), json!(-1), json!(5_000), json!(5_001), json!(i64::MIN)] {
        let body = json!({ "outcome": "partial_refund", "refund_cents": cents, "note": "Split" });
        let refused = resolve(&app, &operator, &dispute, body).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "refund_cents {cents}: {:?}", refused.body);
        assert_eq!(
            refused.field_error("refund_cents"),
            "A partial refund must be more than nothing and less than the whole payment"
        );
        assert_task_unchanged(&app, &assigned.task, &before, &format!("a partial refund of {cents}")).await;
    }
    let payment = kept_payment(&app, &assigned.task).await;
    assert_eq!(sandbox_moved(&app, &payment).await, (0, 0));
    assert_ledger_audits(&app).await;
    app
}

fn refund(payment: &PaymentRow, amount_cents: i64) -> RefundRequest {
    RefundRequest {
        payment_id: payment.id,
        charge_ref: payment.charge_ref.clone(),
        payment_intent: payment.payment_intent.clone(),
        amount_cents,
    }
}

fn is_refused(outcome: Result<String, PaymentError>) -> bool {
    matches!(outcome, Err(PaymentError::Rejected { .. }))
}

/// Straight to the provider, as the outbox calls it: the sandbox refunds what it is asked,
/// once per payment (a retried call with the same amount is the same refund), never nothing
/// and never more than the charge less what was transferred out of it.
async fn the_sandbox_refunds_exactly_the_amount_asked_within_the_charge(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 6_000).await;
    let payment = kept_payment(&app, &assigned.task).await;
    let sandbox = app.server.state.payments.named("sandbox").unwrap();
    assert!(is_refused(sandbox.refund(&refund(&payment, 0)).await), "a refund of nothing");
    assert!(is_refused(sandbox.refund(&refund(&payment, -100)).await), "a negative refund");
    assert!(is_refused(sandbox.refund(&refund(&payment, 6_001)).await), "more than the charge");
    assert_eq!(sandbox_moved(&app, &payment).await, (0, 0));

    let transfer = TransferRequest {
        payment_id: payment.id,
        amount_cents: 4_000,
        currency: payment.currency.clone(),
        destination: None,
        source_charge: payment.charge_ref.clone(),
        transfer_group: format!("task_{}", payment.task_id),
    };
    let reference = sandbox.transfer(&transfer).await.unwrap();
    assert_eq!(sandbox.transfer(&transfer).await.unwrap(), reference, "a retried transfer is the same transfer");
    assert!(is_refused(sandbox.refund(&refund(&payment, 2_001)).await), "more than is left of the charge");
    let reference = sandbox.refund(&refund(&payment, 1_500)).await.unwrap();
    assert_eq!(sandbox.refund(&refund(&payment, 1_500)).await.unwrap(), reference, "a retried refund");
    assert!(is_refused(sandbox.refund(&refund(&payment, 500)).await), "a second, different refund");
    assert_eq!(sandbox_moved(&app, &payment).await, (1_500, 4_000));
    app
}

on_both_backends!(config = with_operator;
    an_accepted_cancellation_refunds_the_whole_amount,
    a_lapsed_cancellation_refunds_the_whole_amount,
    a_dispute_refund_returns_the_whole_amount_and_a_split_exactly_its_parts,
    a_partial_refund_of_nothing_or_less_is_refused_and_changes_nothing,
    the_sandbox_refunds_exactly_the_amount_asked_within_the_charge,
);
