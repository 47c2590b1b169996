//! The ledger audit against the database, on both backends: an amount changed in any table it
//! reconciles (the payment row, a ledger row, a provider call, the money the sandbox moved) is
//! reported on that payment, with the amount as it was found; put back, the audit is clean.
//! Every other test only asserts that the audit finds nothing, which an audit that read
//! nothing, or reported nothing, would pass too.

use crate::common;

use common::{
    TestApp,
    escrow::{assert_ledger_audits, assigned_task, kept_payment},
    market::poster,
};
use reqwest::StatusCode;
use serde_json::json;
use server::{config::Config, on_pool, payments::fees, store::ledger};
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
    assert_eq!(payment.status, "released");
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

on_both_backends!(config = with_operator; every_reconciled_amount_changed_is_reported_on_its_payment);
