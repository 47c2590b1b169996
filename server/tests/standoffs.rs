//! Stand-offs after assignment on both backends: no silence and no order of
//! the sweep hands the escrow to the wrong party. Before this a poster could
//! let the tasker finish, ask to cancel, wait out the 48 hours and be refunded
//! in full, asking again the moment a request was declined; the tasker could
//! not open a dispute; and with both clocks due, auto-release and the lapse
//! gave opposite outcomes depending on which the sweep reached first.

use domain::{
    config::Config,
    payments::sweep::{self, AUTO_RELEASE_AFTER, CANCELLATION_ANSWER_WINDOW, SweepReport},
};
use model::states::PaymentStatus;
use store::db::{Db, Timestamp};

use crate::common;

use std::time::Duration;

use common::{
    TestApp,
    escrow::{Assigned, assert_ledger_audits, assigned_task, kept_payment, notification_titles, task_status},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

fn without_sweep(config: &mut Config) {
    config.payments_sweep_secs = 0;
}

async fn ask_to_cancel(app: &TestApp, token: &str, task: &str, reason: &str) -> common::Response {
    app.post(&format!("/api/tasks/{task}/cancellation"), Some(token), json!({ "reason": reason })).await
}

async fn request_payment(app: &TestApp, assigned: &Assigned) {
    let requested =
        app.post(&format!("/api/tasks/{}/request-payment", assigned.task), Some(&assigned.tasker), json!({})).await;
    assert_eq!(requested.status, StatusCode::OK, "{:?}", requested.body);
}

async fn dispute_of(app: &TestApp, token: &str, task: &str) -> Value {
    app.get(&format!("/api/tasks/{task}/dispute"), Some(token)).await.body
}

async fn an_unanswered_poster_cancellation_after_a_payment_request_becomes_a_dispute(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 20_000).await;
    let task = &assigned.task;
    request_payment(&app, &assigned).await;
    let asked = ask_to_cancel(&app, &assigned.poster, task, "Changed my mind").await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);

    let lapsed = Timestamp::now().plus(CANCELLATION_ANSWER_WINDOW + Duration::from_secs(60));
    let report = sweep::sweep(&app.server.state, lapsed).await.unwrap();
    assert_eq!(report.cancellations_escalated, 1, "{report:?}");
    assert_eq!(report.cancellations_lapsed, 0);
    assert_eq!(task_status(&app, task).await, "completion_requested");
    assert_eq!(
        kept_payment(&app, task).await.status,
        PaymentStatus::Held,
        "silence never refunds work the tasker says is done"
    );

    let dispute = dispute_of(&app, &assigned.tasker, task).await;
    assert_eq!(dispute["status"], "open", "{dispute:?}");
    assert_eq!(dispute["message"], "Changed my mind");
    assert_eq!(dispute["from_cancellation"], true);
    assert!(notification_titles(&app, &assigned.tasker).await.contains(&"Dispute opened".to_owned()));
    assert_eq!(app.get(&format!("/api/tasks/{task}/cancellation"), Some(&assigned.poster)).await.body, Value::Null);

    let later = sweep::sweep(&app.server.state, lapsed.plus(AUTO_RELEASE_AFTER)).await.unwrap();
    assert_eq!((later.auto_released, later.cancellations_lapsed), (0, 0), "the operator decides now");
    assert_eq!(kept_payment(&app, task).await.status, PaymentStatus::Held);
    assert_ledger_audits(&app).await;
    app
}

async fn a_tasker_who_asks_to_cancel_and_hears_nothing_still_refunds_the_poster(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 7_000).await;
    request_payment(&app, &assigned).await;
    let asked = ask_to_cancel(&app, &assigned.tasker, &assigned.task, "I cannot finish").await;
    assert_eq!(asked.status, StatusCode::CREATED);
    let lapsed = Timestamp::now().plus(CANCELLATION_ANSWER_WINDOW + Duration::from_secs(60));
    let report = sweep::sweep(&app.server.state, lapsed).await.unwrap();
    assert_eq!((report.cancellations_lapsed, report.cancellations_escalated), (1, 0));
    assert_eq!(task_status(&app, &assigned.task).await, "cancelled");
    assert_eq!(kept_payment(&app, &assigned.task).await.status, PaymentStatus::Refunded);
    assert_ledger_audits(&app).await;
    app
}

async fn a_poster_asks_to_cancel_an_assigned_task_only_once(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 9_000).await;
    let task = &assigned.task;
    assert_eq!(ask_to_cancel(&app, &assigned.poster, task, "First try").await.status, StatusCode::CREATED);
    let declined =
        app.post(&format!("/api/tasks/{task}/cancellation/decline"), Some(&assigned.tasker), json!({})).await;
    assert_eq!(declined.status, StatusCode::OK);

    let again = ask_to_cancel(&app, &assigned.poster, task, "Second try").await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{:?}", again.body);
    assert_eq!(
        again.body["error"]["message"],
        "You have already asked to cancel this task; if you cannot agree, open a dispute"
    );
    assert_eq!(app.get(&format!("/api/tasks/{task}/cancellation"), Some(&assigned.poster)).await.body, Value::Null);

    // The tasker may still ask, and the poster may still dispute.
    assert_eq!(ask_to_cancel(&app, &assigned.tasker, task, "Fine, let's stop").await.status, StatusCode::CREATED);
    app
}

/// Makes every insert into `table` fail as a database error that is not a constraint's.
async fn refuse_inserts_into(app: &TestApp, table: &str) {
    match &app.server.state.db {
        Db::Sqlite(pool) => {
            let trigger = format!(
                "create trigger refuse_inserts before insert on {table} begin select raise(abort, 'refused by the test'); end"
            );
            sqlx::query(sqlx::AssertSqlSafe(trigger)).execute(pool).await.unwrap();
        }
        Db::Postgres(pool) => {
            sqlx::query(
                "create function refuse_inserts() returns trigger language plpgsql
                 as $$ begin raise exception 'refused by the test'; end $$",
            )
            .execute(pool)
            .await
            .unwrap();
            let trigger = format!(
                "create trigger refuse_inserts before insert on {table} for each row execute function refuse_inserts()"
            );
            sqlx::query(sqlx::AssertSqlSafe(trigger)).execute(pool).await.unwrap();
        }
    }
}

/// Only a second pending request is "already asked" (409): a request the database fails to store
/// for any other reason is the server's error, not the user's, and nothing is stored.
async fn a_request_the_database_fails_to_store_is_an_error_not_a_conflict(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 9_000).await;
    refuse_inserts_into(&app, "cancellation_requests").await;
    let asked = ask_to_cancel(&app, &assigned.tasker, &assigned.task, "Moving away").await;
    assert_eq!(asked.status, StatusCode::INTERNAL_SERVER_ERROR, "{:?}", asked.body);
    assert_eq!(asked.body["error"]["code"], "internal", "{:?}", asked.body);
    let path = format!("/api/tasks/{}/cancellation", assigned.task);
    assert_eq!(app.get(&path, Some(&assigned.poster)).await.body, Value::Null);
    assert_eq!(task_status(&app, &assigned.task).await, "assigned");
    app
}

async fn the_assigned_tasker_can_open_a_dispute(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 11_000).await;
    let task = &assigned.task;
    request_payment(&app, &assigned).await;
    let opened = app
        .post(
            &format!("/api/tasks/{task}/dispute"),
            Some(&assigned.tasker),
            json!({ "reason": "other", "message": "The poster will not release after the work was done" }),
        )
        .await;
    assert_eq!(opened.status, StatusCode::CREATED, "{:?}", opened.body);
    assert_eq!(opened.body["from_cancellation"], false);
    let tasker_id = app.get("/api/me", Some(&assigned.tasker)).await.body["user"]["id"].clone();
    assert_eq!(opened.body["opened_by"], tasker_id);
    assert!(notification_titles(&app, &assigned.poster).await.contains(&"Dispute opened".to_owned()));
    let twice = app
        .post(
            &format!("/api/tasks/{task}/dispute"),
            Some(&assigned.poster),
            json!({ "reason": "other", "message": "x" }),
        )
        .await;
    assert_eq!(twice.status, StatusCode::CONFLICT);
    let released =
        sweep::sweep(&app.server.state, Timestamp::now().plus(AUTO_RELEASE_AFTER + Duration::from_secs(60))).await;
    assert_eq!(released.unwrap().auto_released, 0);
    app
}

/// Both clocks due at once: completion requested 7 days ago, a cancellation
/// request 48 h unanswered. Runs the sweep's two steps in `order`.
async fn both_clocks_due(app: &TestApp, asked_by_poster: bool, lapse_first: bool) -> (String, String, Value) {
    let assigned = assigned_task(app, 13_000).await;
    request_payment(app, &assigned).await;
    let asker = if asked_by_poster { &assigned.poster } else { &assigned.tasker };
    assert_eq!(ask_to_cancel(app, asker, &assigned.task, "We disagree").await.status, StatusCode::CREATED);
    let state = &app.server.state;
    let now = Timestamp::now().plus(AUTO_RELEASE_AFTER + Duration::from_secs(60));
    let mut report = SweepReport::default();
    if lapse_first {
        sweep::answer_lapsed_cancellations(state, now, &mut report).await.unwrap();
        sweep::auto_release_due(state, now, &mut report).await.unwrap();
    } else {
        sweep::auto_release_due(state, now, &mut report).await.unwrap();
        sweep::answer_lapsed_cancellations(state, now, &mut report).await.unwrap();
    }
    assert_eq!(report.auto_released, 0, "auto-release waits for an open cancellation request");
    let dispute = dispute_of(app, &assigned.poster, &assigned.task).await;
    (
        task_status(app, &assigned.task).await,
        kept_payment(app, &assigned.task).await.status.to_string(),
        dispute["status"].clone(),
    )
}

async fn auto_release_and_the_lapse_agree_whichever_the_sweep_reaches_first(app: TestApp) -> TestApp {
    let poster_asked = ("completion_requested".to_owned(), "held".to_owned(), Value::String("open".into()));
    assert_eq!(both_clocks_due(&app, true, false).await, poster_asked, "auto-release first, poster asked");
    assert_eq!(both_clocks_due(&app, true, true).await, poster_asked, "lapse first, poster asked");
    let tasker_asked = ("cancelled".to_owned(), "refunded".to_owned(), Value::Null);
    assert_eq!(both_clocks_due(&app, false, false).await, tasker_asked, "auto-release first, tasker asked");
    assert_eq!(both_clocks_due(&app, false, true).await, tasker_asked, "lapse first, tasker asked");
    assert_ledger_audits(&app).await;
    app
}

on_both_backends!(config = without_sweep;
    an_unanswered_poster_cancellation_after_a_payment_request_becomes_a_dispute,
    a_tasker_who_asks_to_cancel_and_hears_nothing_still_refunds_the_poster,
    a_poster_asks_to_cancel_an_assigned_task_only_once,
    a_request_the_database_fails_to_store_is_an_error_not_a_conflict,
    the_assigned_tasker_can_open_a_dispute,
    auto_release_and_the_lapse_agree_whichever_the_sweep_reaches_first,
);
