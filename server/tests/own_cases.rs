//! No one judges their own case (security review 3: an operator opened a dispute on their own
//! task and refunded it to themselves, dismissed a report about themselves and suspended their
//! reporter). Every way an operator acts is one row: deciding a dispute on a task they are a
//! party to, resolving a report on something they wrote (or reported), suspending or
//! reinstating themselves or someone who reported them, and retrying a parked transfer of their
//! own money. Each is 403 with the same message, changes nothing, and leaves a `refused` row in
//! the audit log; another operator can then act.

use std::time::Duration;

use domain::{
    config::Config,
    payments::{
        calls,
        sandbox::{Call, Fault},
        sweep,
    },
};
use model::states::ProviderCallStatus;
use reqwest::StatusCode;
use serde_json::{Value, json};
use store::db::Timestamp;

use crate::common::{
    self, TestApp,
    escrow::{assign, calls_of, kept_payment},
    market::{id, post_task, poster, tasker},
    rows::snapshot_table,
};

const OPERATOR: &str = "judge@example.com";
const OTHER_OPERATOR: &str = "second-judge@example.com";
const OWN_CASE: &str = "You are part of this case, so another operator must act on it";

fn with_operators(config: &mut Config) {
    config.payments_sweep_secs = 0;
    config.admin_emails = vec![OPERATOR.into(), OTHER_OPERATOR.into()];
}

on_both_backends!(config = with_operators; an_operator_takes_no_action_in_their_own_case);

async fn user_id(app: &TestApp, token: &str) -> String {
    app.get("/api/me", Some(token)).await.body["user"]["id"].as_str().unwrap().to_owned()
}

async fn an_operator_takes_no_action_in_their_own_case(app: TestApp) -> TestApp {
    let judge = poster(&app, OPERATOR).await;
    let judge_id = user_id(&app, &judge).await;
    let second = poster(&app, OTHER_OPERATOR).await;
    let worker = tasker(&app, "own-case-tasker@example.com").await;
    let worker_id = user_id(&app, &worker).await;

    // A dispute on the judge's own task.
    let own_task = assign(&app, &judge, &worker, 6_000).await;
    let dispute = app
        .post(
            &format!("/api/tasks/{}/dispute", own_task.task),
            Some(&judge),
            json!({ "reason": "poor_quality", "message": "Not done" }),
        )
        .await;
    assert_eq!(dispute.status, StatusCode::CREATED, "{:?}", dispute.body);
    let dispute_id = id(&dispute.body);

    // A report about the judge's own task, filed by the tasker.
    let judges_open_task = id(&post_task(&app, &judge, json!({ "title": "Paint the fence" })).await);
    let about_the_judge = app
        .post(
            "/api/reports",
            Some(&worker),
            json!({ "target": { "type": "task", "id": judges_open_task }, "reason": "spam", "details": "Odd" }),
        )
        .await;
    assert_eq!(about_the_judge.status, StatusCode::CREATED, "{:?}", about_the_judge.body);
    let report_id = id(&about_the_judge.body);

    // A report the judge filed about someone else's task.
    let others_task = id(&post_task(&app, &worker, json!({ "title": "Clean the gutters" })).await);
    let by_the_judge = app
        .post(
            "/api/reports",
            Some(&judge),
            json!({ "target": { "type": "task", "id": others_task }, "reason": "scam", "details": "Odd" }),
        )
        .await;
    assert_eq!(by_the_judge.status, StatusCode::CREATED, "{:?}", by_the_judge.body);
    let judges_report_id = id(&by_the_judge.body);

    // A parked transfer of money owed to the judge as a tasker.
    let payer = poster(&app, "own-case-payer@example.com").await;
    let judge_as_tasker = assign(&app, &payer, &judge, 4_000).await;
    app.server.state.payments.sandbox().faults().inject(Call::Transfer, Fault::Down);
    let released = app.post(&format!("/api/tasks/{}/release", judge_as_tasker.task), Some(&payer), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    let payment = kept_payment(&app, &judge_as_tasker.task).await;
    let mut at = Timestamp::now();
    for _ in 1..calls::MAX_ATTEMPTS {
        at = at.plus(Duration::from_secs(6 * 3600 + 1));
        sweep::sweep(&app.server.state, at).await.unwrap();
    }
    let [transfer] = calls_of(&app, payment.id).await.try_into().unwrap();
    assert_eq!(transfer.status, ProviderCallStatus::Parked);
    app.server.state.payments.sandbox().faults().clear();

    let tables = ["tasks", "payments", "disputes", "reports", "users", "provider_calls", "ledger_entries"];
    let mut before = Vec::new();
    for table in tables {
        before.push(snapshot_table(&app, table).await);
    }
    let audit_before = app.get("/api/admin/audit", Some(&second)).await.body["items"].as_array().unwrap().len();

    // (path, body, what is refused)
    let cases: Vec<(String, Value, &str)> = vec![
        (
            format!("/api/admin/disputes/{dispute_id}/resolve"),
            json!({ "outcome": "refund", "note": "Refund to me" }),
            "a dispute on their own task",
        ),
        (
            format!("/api/admin/reports/{report_id}/resolve"),
            json!({ "action": "dismiss", "note": "Nothing here" }),
            "a report about their own task",
        ),
        (
            format!("/api/admin/reports/{judges_report_id}/resolve"),
            json!({ "action": "remove", "note": "As I reported" }),
            "a report they filed",
        ),
        (format!("/api/admin/users/{judge_id}/reinstate"), json!({ "note": "Me" }), "reinstating themselves"),
        (
            format!("/api/admin/users/{judge_id}/suspend"),
            json!({ "reason": "Testing", "days": 1 }),
            "suspending themselves",
        ),
        (
            format!("/api/admin/users/{worker_id}/suspend"),
            json!({ "reason": "They reported me", "days": 7 }),
            "suspending someone who reported them",
        ),
        (
            format!("/api/admin/provider-calls/{}/retry", transfer.id),
            json!({}),
            "retrying a transfer of their own money",
        ),
    ];
    for (path, body, what) in &cases {
        let refused = app.post(path, Some(&judge), body.clone()).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{what}: {:?}", refused.body);
        assert_eq!(refused.error_code(), "forbidden", "{what}");
        assert_eq!(refused.body["error"]["message"], OWN_CASE, "{what}");
    }
    for (table, rows) in tables.iter().zip(&before) {
        assert_eq!(&snapshot_table(&app, table).await, rows, "{table} changed by a refused action");
    }
    let audit = app.get("/api/admin/audit", Some(&second)).await;
    let items = audit.body["items"].as_array().unwrap();
    assert_eq!(items.len(), audit_before + cases.len(), "each refusal is in the audit log: {items:?}");
    assert!(
        items[..cases.len()].iter().all(|item| item["refused"] == true && item["operator"]["email"] == OPERATOR),
        "{items:?}"
    );

    // Another operator can act.
    let decided = app
        .post(
            &format!("/api/admin/disputes/{dispute_id}/resolve"),
            Some(&second),
            json!({ "outcome": "release", "note": "Work was done" }),
        )
        .await;
    assert_eq!(decided.status, StatusCode::OK, "{:?}", decided.body);
    let dismissed = app
        .post(
            &format!("/api/admin/reports/{report_id}/resolve"),
            Some(&second),
            json!({ "action": "dismiss", "note": "Fine" }),
        )
        .await;
    assert_eq!(dismissed.status, StatusCode::OK, "{:?}", dismissed.body);
    let retried = app.post(&format!("/api/admin/provider-calls/{}/retry", transfer.id), Some(&second), json!({})).await;
    assert_eq!(retried.status, StatusCode::NO_CONTENT, "{:?}", retried.body);
    let latest = app.get("/api/admin/audit", Some(&second)).await;
    assert_eq!(latest.body["items"][0]["refused"], false);
    common::escrow::assert_ledger_audits(&app).await;
    app
}
