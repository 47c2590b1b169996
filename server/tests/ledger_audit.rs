//! The ledger audit against the database, on both backends: an amount changed in any table it
//! reconciles (the payment row, a ledger row, a provider call, the money the sandbox moved) is
//! reported on that payment, with the amount as it was found; put back, the audit is clean.
//! Every other test only asserts that the audit finds nothing, which an audit that read
//! nothing, or reported nothing, would pass too.

use domain::config::Config;
use model::{payments::fees, states::PaymentStatus};
use store::{ledger, on_pool};

use crate::common;

use common::{
    TestApp,
    escrow::{assert_ledger_audits, assigned_task, kept_payment, pay, payments_of},
    market::poster,
};
use reqwest::StatusCode;
use serde_json::json;
use uuid::Uuid;

const OPERATOR: &str = "operator@example.com";

fn with_operator(config: &mut Config) {
    config.payments_sweep_secs = 0;
    config.admin_emails = vec![OPERATOR.into()];
}

/// Adds `delta` to one recorded amount of `payment`: `update` is the statement, `$1` the amount to
/// add and `$2` the payment.
async fn shift(app: &TestApp, update: &'static str, payment: Uuid, delta: i64) {
    let changed = on_pool!(&app.server.state.db, |pool| {
        sqlx::query(update).bind(delta).bind(payment).execute(pool).await.map(|done| done.rows_affected())
    });
    assert_eq!(changed.unwrap(), 1, "{update}");
}

async fn every_reconciled_amount_changed_is_reported_on_its_payment(app: TestApp) -> TestApp {
    // A split dispute moves money every way: a charge, a refund, a payout and a fee, a refund and
    // a transfer call, and both kinds of money moved by the sandbox.
    let operator = poster(&app, OPERATOR).await;
    let assigned = assigned_task(&app, 10_001).await;
    let opened = app
        .post(
            &format!("/api/tasks/{}/dispute", assigned.task),
            Some(&assigned.poster),
            json!({ "reason": "no_show", "message": "Nobody came" }),
        )
        .await;
    assert_eq!(opened.status, StatusCode::CREATED, "{:?}", opened.body);
    let decided = app
        .post(
            &format!("/api/admin/disputes/{}/resolve", opened.body["id"].as_str().unwrap()),
            Some(&operator),
            json!({ "outcome": "partial_refund", "refund_cents": 3_333, "note": "Half done" }),
        )
        .await;
    assert_eq!(decided.status, StatusCode::OK, "{:?}", decided.body);
    let payment = kept_payment(&app, &assigned.task).await;
    assert_eq!(payment.status, PaymentStatus::Released);
    let fee = fees::fee_cents(10_001 - 3_333);
    let payout = 10_001 - 3_333 - fee;
    assert_ledger_audits(&app).await;

    let session = payment.session_id.as_str();
    let tampered = [
        ("update payments set fee_cents = fee_cents + $1 where id = $2", "payment fee", fee),
        (
            "update ledger_entries set amount_cents = amount_cents + $1 where payment_id = $2 and kind = 'payout'",
            "ledger payout",
            payout,
        ),
        (
            "update provider_calls set amount_cents = amount_cents + $1 where payment_id = $2 and kind = 'refund'",
            "call refund",
            3_333,
        ),
    ];
    for (update, what, cents) in tampered {
        shift(&app, update, payment.id, 1).await;
        let [mismatch] = ledger::audit(&app.server.state.db).await.unwrap().try_into().unwrap_or_else(|found| {
            panic!("{what} changed: one mismatch, not {found:#?}");
        });
        assert_eq!((mismatch.payment_id, mismatch.status.as_str()), (payment.id, "released"), "{what}");
        assert!(mismatch.found.contains(&(what.to_owned(), cents + 1)), "{what}: {mismatch:#?}");
        assert!(mismatch.expected.contains(&(what.to_owned(), cents)), "{what}: {mismatch:#?}");
        shift(&app, update, payment.id, -1).await;
        assert_ledger_audits(&app).await;
    }

    // The sandbox's own record of the transfer, found by the payment's checkout session.
    let moved = |delta: i64| {
        let db = app.server.state.db.clone();
        async move {
            let changed = on_pool!(&db, |pool| {
                sqlx::query("update sandbox_sessions set transferred_cents = transferred_cents + $1 where id = $2")
                    .bind(delta)
                    .bind(session)
                    .execute(pool)
                    .await
                    .map(|done| done.rows_affected())
            });
            assert_eq!(changed.unwrap(), 1);
        }
    };
    moved(1).await;
    let [mismatch] = ledger::audit(&app.server.state.db).await.unwrap().try_into().unwrap();
    assert_eq!(mismatch.payment_id, payment.id);
    assert!(mismatch.found.contains(&("sandbox transfer".to_owned(), payout + 1)), "{mismatch:#?}");
    assert!(mismatch.expected.contains(&("sandbox transfer".to_owned(), payout)), "{mismatch:#?}");
    moved(-1).await;
    assert_ledger_audits(&app).await;
    app
}

/// Runs `update` with `$1` the value and `$2` the row's id; exactly one row changes.
async fn set(app: &TestApp, update: &'static str, value: &'static str, id: Uuid) {
    let changed = on_pool!(&app.server.state.db, |pool| {
        sqlx::query(update).bind(value).bind(id).execute(pool).await.map(|done| done.rows_affected())
    });
    assert_eq!(changed.unwrap(), 1, "{update}");
}

async fn an_increase_that_disagrees_with_its_price_increase_or_parent_is_reported(app: TestApp) -> TestApp {
    // A paid price increase: its own payment, held, whose parent is the task's held payment.
    let assigned = assigned_task(&app, 10_000).await;
    let asked = app
        .post(
            &format!("/api/tasks/{}/price-increases", assigned.task),
            Some(&assigned.tasker),
            json!({ "amount_cents": 4_000, "reason": "The fence is 10 metres longer than described" }),
        )
        .await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    let approve = format!("/api/price-increases/{}/approve", asked.body["id"].as_str().unwrap());
    let approved = app.post(&approve, Some(&assigned.poster), json!({})).await;
    assert_eq!(approved.status, StatusCode::OK, "{:?}", approved.body);
    pay(&app, approved.body["url"].as_str().unwrap()).await;
    let verified = app
        .post(
            "/api/payments/verify",
            Some(&assigned.poster),
            json!({ "session_id": approved.body["session_id"], "task_id": assigned.task, "offer_id": assigned.offer }),
        )
        .await;
    assert_eq!(verified.body["success"], true, "{:?}", verified.body);
    let payments = payments_of(&app, &assigned.task).await;
    let [task, increase] = payments.as_slice() else { panic!("two payments: {payments:#?}") };
    assert_eq!(
        (task.purpose.as_str(), increase.purpose.as_str(), increase.status.as_str()),
        ("task", "increase", "held")
    );
    assert_ledger_audits(&app).await;

    // Its price increase no longer paid: reported on the increase's payment, and only there.
    let increase_status = "update price_increases set status = $1 where payment_id = $2";
    set(&app, increase_status, "closed", increase.id).await;
    let [mismatch] = ledger::audit(&app.server.state.db).await.unwrap().try_into().unwrap();
    assert_eq!((mismatch.payment_id, mismatch.status.as_str()), (increase.id, "held"));
    assert!(mismatch.expected.contains(&("increase paid".to_owned(), 1)), "{mismatch:#?}");
    assert!(mismatch.found.contains(&("increase closed".to_owned(), 1)), "{mismatch:#?}");
    set(&app, increase_status, "paid", increase.id).await;
    assert_ledger_audits(&app).await;

    // Its parent a held payment of another task.
    let elsewhere = kept_payment(&app, &assigned_task(&app, 3_000).await.task).await;
    let reparented = on_pool!(&app.server.state.db, |pool| {
        let update = "update payments set parent_payment_id = $1 where id = $2";
        sqlx::query(update).bind(elsewhere.id).bind(increase.id).execute(pool).await.map(|done| done.rows_affected())
    });
    assert_eq!(reparented.unwrap(), 1);
    let [mismatch] = ledger::audit(&app.server.state.db).await.unwrap().try_into().unwrap();
    assert_eq!(mismatch.payment_id, increase.id);
    assert!(mismatch.found.contains(&("parent held on the task".to_owned(), 0)), "{mismatch:#?}");
    app
}

/// The escrow check: the ledger's escrow deltas summed against the held payments, both read.
async fn the_escrow_check_sums_the_ledger_against_the_held_payments(app: TestApp) -> TestApp {
    let held = assigned_task(&app, 10_000).await;
    assigned_task(&app, 2_500).await;
    let check = ledger::escrow_check(&app.server.state.db).await.unwrap();
    assert_eq!(check, ledger::EscrowCheck { ledger_balance_cents: 12_500, held_payments_cents: 12_500 });
    assert!(check.balances());
    let payment = kept_payment(&app, &held.task).await;
    let charge = "update ledger_entries set escrow_delta_cents = escrow_delta_cents + $1
                  where payment_id = $2 and kind = 'charge'";
    shift(&app, charge, payment.id, -1).await;
    let check = ledger::escrow_check(&app.server.state.db).await.unwrap();
    assert_eq!(check, ledger::EscrowCheck { ledger_balance_cents: 12_499, held_payments_cents: 12_500 });
    assert!(!check.balances(), "a cent missing from the ledger");
    app
}

on_both_backends!(config = with_operator;
    the_escrow_check_sums_the_ledger_against_the_held_payments,
    every_reconciled_amount_changed_is_reported_on_its_payment,
    an_increase_that_disagrees_with_its_price_increase_or_parent_is_reported);
