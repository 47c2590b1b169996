//! What operators and suspended taskers see of money and history (issue 23, API.md "Trust and
//! safety"): a user's record lists their tasks, offers, disputes, payments, reports and actions;
//! a suspended tasker's owed transfer is held by the operator, outlives a suspension that ends by
//! itself ("On hold: contact support" on Earnings) and goes out once an operator reinstates them.

use domain::{config::Config, payments::sweep};
use store::{db::Timestamp, on_pool};

use crate::common;

use std::time::Duration;

use common::{
    TestApp,
    escrow::{assign, kept_payment},
    market::{id, make_offer, post_task, poster, tasker},
    rows::snapshot_table,
};
use reqwest::StatusCode;
use serde_json::{Value, json};

const OPERATOR: &str = "operator@example.com";

fn with_operator(config: &mut Config) {
    config.payments_sweep_secs = 0;
    config.admin_emails = vec![OPERATOR.into()];
}

on_both_backends!(config = with_operator;
    a_users_record_has_their_tasks_offers_disputes_payments_reports_and_actions,
    a_held_transfer_outlives_a_timed_suspension_until_reinstatement,
);

async fn user_id(app: &TestApp, token: &str) -> String {
    app.get("/api/me", Some(token)).await.body["user"]["id"].as_str().unwrap().to_owned()
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array().unwrap().iter().map(|item| item["id"].as_str().unwrap().to_owned()).collect()
}

async fn a_users_record_has_their_tasks_offers_disputes_payments_reports_and_actions(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let owner = poster(&app, "poster@example.com").await;
    let helper = tasker(&app, "tasker@example.com").await;
    let other = tasker(&app, "other@example.com").await;
    let helper_id = user_id(&app, &helper).await;

    // The tasker posts a task of their own, offers on an open one, and is assigned a paid one
    // that the poster disputes; someone reports their offer; an operator warns them.
    let own = id(&post_task(&app, &helper, json!({ "title": "My own small job" })).await);
    let open = id(&post_task(&app, &owner, json!({ "title": "Open job" })).await);
    let offer = id(&make_offer(&app, &helper, &open, 7_000).await);
    let assigned = assign(&app, &owner, &helper, 9_000).await;
    let disputed = app
        .post(
            &format!("/api/tasks/{}/dispute", assigned.task),
            Some(&owner),
            json!({ "reason": "no_show", "message": "Nobody came" }),
        )
        .await;
    assert_eq!(disputed.status, StatusCode::CREATED, "{:?}", disputed.body);
    let report = json!({ "target": { "type": "offer", "id": offer }, "reason": "spam" });
    let filed = app.post("/api/reports", Some(&owner), report).await;
    assert_eq!(filed.status, StatusCode::CREATED, "{:?}", filed.body);
    let warned = app
        .post(
            &format!("/api/admin/reports/{}/resolve", id(&filed.body)),
            Some(&operator),
            json!({ "action": "warn", "note": "Keep offers on topic" }),
        )
        .await;
    assert_eq!(warned.status, StatusCode::OK, "{:?}", warned.body);
    let _unrelated = post_task(&app, &other, json!({ "title": "Someone else's" })).await;

    let path = format!("/api/admin/users/{helper_id}");
    let tables = ["users", "tasks", "offers", "disputes", "payments", "reports", "audit_log"];
    let mut before = Vec::new();
    for table in tables {
        before.push(snapshot_table(&app, table).await);
    }
    for (token, expected) in [
        (None, StatusCode::UNAUTHORIZED),
        (Some(owner.as_str()), StatusCode::FORBIDDEN),
        (Some(helper.as_str()), StatusCode::FORBIDDEN),
        (Some(other.as_str()), StatusCode::FORBIDDEN),
    ] {
        let refused = app.get(&path, token).await;
        assert_eq!(refused.status, expected, "{:?}", refused.body);
        assert!(refused.body.get("tasks").is_none(), "a refusal carries no record: {:?}", refused.body);
    }
    let mut after = Vec::new();
    for table in tables {
        after.push(snapshot_table(&app, table).await);
    }
    assert_eq!(after, before, "reading (or being refused) a record changes nothing");

    let record = app.get(&path, Some(&operator)).await;
    assert_eq!(record.status, StatusCode::OK, "{:?}", record.body);
    let record = record.body;
    assert_eq!(record["user"]["id"], helper_id.as_str());
    let mut tasks = ids(&record["tasks"]);
    tasks.sort();
    let mut expected = vec![own.clone(), assigned.task.clone()];
    expected.sort();
    assert_eq!(tasks, expected, "posted and assigned tasks, nobody else's");
    let role =
        |task: &str| record["tasks"].as_array().unwrap().iter().find(|t| t["id"] == task).unwrap()["role"].clone();
    assert_eq!((role(&own), role(&assigned.task)), (json!("poster"), json!("tasker")));
    let mut offers = ids(&record["offers"]);
    offers.sort();
    let mut expected = vec![offer.clone(), assigned.offer.clone()];
    expected.sort();
    assert_eq!(offers, expected);
    assert_eq!(ids(&record["disputes"]), vec![disputed.body["id"].as_str().unwrap().to_owned()]);
    assert_eq!(record["disputes"][0]["status"], "open");
    assert_eq!(record["payments"].as_array().unwrap().len(), 1, "{}", record["payments"]);
    assert_eq!(record["payments"][0]["task_id"], assigned.task.as_str());
    assert_eq!(record["payments"][0]["role"], "tasker");
    assert_eq!(record["payments"][0]["amount_cents"], 9_000);
    assert_eq!(record["payments"][0]["status"], "held");
    assert_eq!(ids(&record["reports"]), vec![id(&filed.body)]);
    assert_eq!(record["actions"][0]["action"], "warn");
    assert_eq!(record["actions"][0]["note"], "Keep offers on topic");

    // The poster's record has the same payment from their side, and no offers.
    let owner_record =
        app.get(&format!("/api/admin/users/{}", user_id(&app, &owner).await), Some(&operator)).await.body;
    assert_eq!(owner_record["payments"][0]["role"], "poster");
    assert_eq!(owner_record["offers"], json!([]));
    assert_eq!(owner_record["disputes"][0]["id"], disputed.body["id"]);
    let unknown = app.get(&format!("/api/admin/users/{}", uuid::Uuid::now_v7()), Some(&operator)).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    app
}

async fn earning_line(app: &TestApp, token: &str, task: &str) -> Value {
    let earnings = app.get("/api/me/earnings", Some(token)).await;
    assert_eq!(earnings.status, StatusCode::OK, "{:?}", earnings.body);
    earnings.body["items"].as_array().unwrap().iter().find(|line| line["task_id"] == task).expect("listed").clone()
}

async fn login(app: &TestApp, email: &str) -> common::Response {
    app.post("/api/auth/login", None, json!({ "email": email, "password": "correct horse" })).await
}

async fn a_held_transfer_outlives_a_timed_suspension_until_reinstatement(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let owner = poster(&app, "poster@example.com").await;
    let helper = tasker(&app, "tasker@example.com").await;
    let helper_id = user_id(&app, &helper).await;
    let assigned = assign(&app, &owner, &helper, 10_000).await;
    assert_eq!(earning_line(&app, &helper, &assigned.task).await["on_hold"], false);
    let path = format!("/api/admin/users/{helper_id}");
    let suspended =
        app.post(&format!("{path}/suspend"), Some(&operator), json!({ "reason": "Fraud", "days": 3 })).await;
    assert_eq!(suspended.status, StatusCode::NO_CONTENT);
    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&owner), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    assert!(kept_payment(&app, &assigned.task).await.transfer_ref.is_none(), "no transfer to a suspended tasker");
    let record = app.get(&path, Some(&operator)).await.body;
    assert_eq!(record["payments"][0]["transfer_on_hold"], true, "{}", record["payments"]);

    // The three days pass: the suspension has ended by itself, the hold has not.
    on_pool!(&app.server.state.db, |pool| {
        sqlx::query("update users set suspended_until = suspended_until - 259300000 where id = $1")
            .bind(helper_id.parse::<uuid::Uuid>().unwrap())
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
            .unwrap()
    });
    let signed_in = login(&app, "tasker@example.com").await;
    assert_eq!(signed_in.status, StatusCode::OK, "{:?}", signed_in.body);
    let token = common::access_token(&signed_in.body);
    let later = Timestamp::now().plus(Duration::from_secs(3_600));
    sweep::sweep(&app.server.state, later).await.expect("sweep");
    assert!(kept_payment(&app, &assigned.task).await.transfer_ref.is_none(), "still held for the operator");
    let line = earning_line(&app, &token, &assigned.task).await;
    assert_eq!(line["on_hold"], true, "{line}");
    assert_eq!(line["payout_cents"], 9_000);
    let calls = store::provider_calls::for_payment(&app.server.state.db, kept_payment(&app, &assigned.task).await.id)
        .await
        .unwrap();
    assert_eq!((calls[0].status.as_str(), calls[0].attempts), ("pending", 0), "the hold spends no attempts");

    // The operator reinstates (the suspension is over, the hold is lifted): the transfer goes out.
    let reinstated = app.post(&format!("{path}/reinstate"), Some(&operator), json!({ "note": "Cleared" })).await;
    assert_eq!(reinstated.status, StatusCode::NO_CONTENT, "{:?}", reinstated.body);
    sweep::sweep(&app.server.state, later).await.expect("sweep");
    assert!(kept_payment(&app, &assigned.task).await.transfer_ref.is_some(), "paid once reinstated");
    let line = earning_line(&app, &token, &assigned.task).await;
    assert_eq!((line["on_hold"].clone(), line["state"].clone()), (json!(false), json!("paid_out")), "{line}");
    let again = app.post(&format!("{path}/reinstate"), Some(&operator), json!({})).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "nothing left to lift");
    app
}
