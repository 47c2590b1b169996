//! The operators' live topic `admin` (API.md "Trust and safety"): an open console hears of new
//! reports and disputes at once; nobody but an operator may subscribe to it.

use domain::{
    config::Config,
    payments::sweep::{self, CANCELLATION_ANSWER_WINDOW},
};
use store::db::Timestamp;

use crate::common;

use common::{
    TestApp,
    escrow::{Assigned, assigned_task},
    live::{connect, next_event_where, next_json, send_json, subscribe},
    market::{id, post_task, poster, tasker},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

const OPERATOR: &str = "operator@example.com";

fn with_operator(config: &mut Config) {
    config.payments_sweep_secs = 0;
    config.admin_emails = vec![OPERATOR.into()];
}

on_both_backends_and_buses!(
    config = with_operator;
    an_operators_socket_hears_of_each_new_report_and_dispute,
    only_operators_may_watch_the_admin_topic,
    a_dispute_the_sweep_opens_reaches_the_console_too,
);

async fn an_operators_socket_hears_of_each_new_report_and_dispute(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let mut console = connect(&app, Some(&operator)).await;
    subscribe(&mut console, "admin").await;

    let owner = poster(&app, "poster@example.com").await;
    let task = id(&post_task(&app, &owner, json!({ "title": "Too good to be true" })).await);
    let first = tasker(&app, "first@example.com").await;
    let report = json!({ "target": { "type": "task", "id": task }, "reason": "scam" });
    let filed = app.post("/api/reports", Some(&first), report.clone()).await;
    assert_eq!(filed.status, StatusCode::CREATED, "{:?}", filed.body);
    // The admin topic is one for every server on the Redis bus, and other tests' servers share
    // it: only the events about this test's tasks are this test's.
    let about_task = |data: &Value| data["target"]["id"] == task;
    let event = next_event_where(&mut console, "admin", "report.created", about_task).await;
    assert_eq!(event["id"], filed.body["id"]);
    assert_eq!(event["target"], json!({ "type": "task", "id": task }));
    assert_eq!(event["reason"], "scam");

    // A repeat of an open report adds nothing, so nothing is published: the next event is the
    // second reporter's.
    let again = app.post("/api/reports", Some(&first), report.clone()).await;
    assert_eq!(again.status, StatusCode::OK, "{:?}", again.body);
    let second = tasker(&app, "second@example.com").await;
    let other = app.post("/api/reports", Some(&second), report).await;
    assert_eq!(other.status, StatusCode::CREATED, "{:?}", other.body);
    assert_eq!(next_event_where(&mut console, "admin", "report.created", about_task).await["id"], other.body["id"]);

    let Assigned { poster: payer, task: disputed, .. } = assigned_task(&app, 5_000).await;
    let opened = app
        .post(
            &format!("/api/tasks/{disputed}/dispute"),
            Some(&payer),
            json!({ "reason": "no_show", "message": "Nobody came" }),
        )
        .await;
    assert_eq!(opened.status, StatusCode::CREATED, "{:?}", opened.body);
    let event = next_event_where(&mut console, "admin", "dispute.created", |data| data["task_id"] == disputed).await;
    assert_eq!(event, json!({ "id": opened.body["id"], "task_id": disputed }));
    app
}

/// A poster's cancellation request left unanswered after the tasker asked to be paid becomes a
/// dispute in the sweep, with nobody's request behind it: the console hears of it all the same.
async fn a_dispute_the_sweep_opens_reaches_the_console_too(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let mut console = connect(&app, Some(&operator)).await;
    subscribe(&mut console, "admin").await;

    let assigned = assigned_task(&app, 20_000).await;
    let task = &assigned.task;
    let requested = app.post(&format!("/api/tasks/{task}/request-payment"), Some(&assigned.tasker), json!({})).await;
    assert_eq!(requested.status, StatusCode::OK, "{:?}", requested.body);
    let asked = app
        .post(
            &format!("/api/tasks/{task}/cancellation"),
            Some(&assigned.poster),
            json!({ "reason": "Changed my mind" }),
        )
        .await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);

    let lapsed = Timestamp::now().plus(CANCELLATION_ANSWER_WINDOW + std::time::Duration::from_secs(60));
    let report = sweep::sweep(&app.server.state, lapsed).await.unwrap();
    assert_eq!(report.cancellations_escalated, 1, "{report:?}");
    let dispute = app.get(&format!("/api/tasks/{task}/dispute"), Some(&assigned.poster)).await.body;
    let event = next_event_where(&mut console, "admin", "dispute.created", |data| data["task_id"] == *task).await;
    assert_eq!(event, json!({ "id": dispute["id"], "task_id": task }));
    app
}

async fn only_operators_may_watch_the_admin_topic(app: TestApp) -> TestApp {
    let someone = poster(&app, "poster@example.com").await;
    let worker = tasker(&app, "tasker@example.com").await;
    let mut sockets =
        vec![connect(&app, None).await, connect(&app, Some(&someone)).await, connect(&app, Some(&worker)).await];
    for socket in &mut sockets {
        send_json(socket, json!({ "type": "subscribe", "topic": "admin" })).await;
        let refused = loop {
            let message = next_json(socket).await;
            if message["topic"] == "admin" {
                break message;
            }
        };
        assert_eq!(refused["type"], "error", "{refused}");
        assert_eq!(refused["code"], "forbidden");
        assert_eq!(refused["topic"], "admin");
    }

    // The operator's own socket is let in.
    let operator = poster(&app, OPERATOR).await;
    let mut console = connect(&app, Some(&operator)).await;
    subscribe(&mut console, "admin").await;
    app
}
