//! Disputes on both backends: a party stops the clock on an assigned
//! task's escrow (auto-release, the cancellation lapse, payment requests and
//! new cancellation requests wait), both parties hear of it live, and an
//! operator releases, refunds or splits the escrow — with the ledger rows and
//! provider calls of every outcome audited. Before disputes existed a tasker
//! could request payment at once, decline every cancellation and be paid by
//! auto-release after 7 days.

use domain::{
    config::Config,
    payments::{
        disputes,
        sweep::{self, AUTO_RELEASE_AFTER, CANCELLATION_ANSWER_WINDOW},
    },
    refusal::DomainError,
};
use model::states::PaymentStatus;
use store::{db::Timestamp, tasks};

use crate::common;

use std::time::Duration;

use common::{
    TestApp,
    escrow::{Assigned, assert_ledger_audits, assigned_task, calls_of, kept_payment, notification_titles, task_status},
    live,
    market::poster,
};
use reqwest::StatusCode;
use serde_json::{Value, json};

const OPERATOR: &str = "operator@example.com";

fn with_operator(config: &mut Config) {
    config.payments_sweep_secs = 0;
    config.admin_emails = vec![OPERATOR.into()];
}

async fn open_dispute(app: &TestApp, assigned: &Assigned) -> Value {
    let opened = app
        .post(
            &format!("/api/tasks/{}/dispute", assigned.task),
            Some(&assigned.poster),
            json!({ "reason": "poor_quality", "message": "The wardrobe doors do not close" }),
        )
        .await;
    assert_eq!(opened.status, StatusCode::CREATED, "{:?}", opened.body);
    opened.body
}

async fn resolve(app: &TestApp, token: &str, dispute: &Value, body: Value) -> common::Response {
    app.post(&format!("/api/admin/disputes/{}/resolve", dispute["id"].as_str().unwrap()), Some(token), body).await
}

/// A signed-in socket, ready: its automatic `user:{id}` subscription is in place once a ping is answered.
async fn ready_socket(app: &TestApp, token: &str) -> live::Socket {
    let mut socket = live::connect(app, Some(token)).await;
    live::send_json(&mut socket, json!({ "type": "ping" })).await;
    while live::next_json(&mut socket).await["type"] != "pong" {}
    socket
}

async fn user_topic(app: &TestApp, token: &str) -> String {
    format!("user:{}", app.get("/api/me", Some(token)).await.body["user"]["id"].as_str().unwrap())
}

async fn a_dispute_stops_auto_release_and_every_other_move_of_the_task(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    let task = &assigned.task;
    let requested = app.post(&format!("/api/tasks/{task}/request-payment"), Some(&assigned.tasker), json!({})).await;
    assert_eq!(requested.status, StatusCode::OK);

    let mut tasker_socket = ready_socket(&app, &assigned.tasker).await;
    let dispute = open_dispute(&app, &assigned).await;
    assert_eq!((dispute["status"].as_str(), dispute["reason"].as_str()), (Some("open"), Some("poor_quality")));
    let topic = user_topic(&app, &assigned.tasker).await;
    let told =
        live::next_event_where(&mut tasker_socket, &topic, "notification.created", |n| n["type"] == "dispute").await;
    assert_eq!(told["title"], "Dispute opened");
    assert!(notification_titles(&app, &assigned.poster).await.contains(&"Dispute opened".to_owned()));

    let again = app
        .post(
            &format!("/api/tasks/{task}/dispute"),
            Some(&assigned.poster),
            json!({ "reason": "other", "message": "x" }),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    let by_tasker = app
        .post(
            &format!("/api/tasks/{task}/dispute"),
            Some(&assigned.tasker),
            json!({ "reason": "other", "message": "x" }),
        )
        .await;
    assert_eq!(by_tasker.status, StatusCode::CONFLICT, "one dispute at a time, whoever opens it");
    let cancel =
        app.post(&format!("/api/tasks/{task}/cancellation"), Some(&assigned.tasker), json!({ "reason": "Done" })).await;
    assert_eq!(cancel.status, StatusCode::CONFLICT);
    assert_eq!(cancel.body["error"]["message"], "A dispute is open on this task; an operator will decide");

    let far = Timestamp::now().plus(AUTO_RELEASE_AFTER + Duration::from_secs(86_400));
    let report = sweep::sweep(&app.server.state, far).await.unwrap();
    assert_eq!(report.auto_released, 0);
    assert_eq!(task_status(&app, task).await, "completion_requested");
    assert_eq!(kept_payment(&app, task).await.status, PaymentStatus::Held);

    let stranger = poster(&app, "nosy@example.com").await;
    assert_eq!(app.get(&format!("/api/tasks/{task}/dispute"), Some(&stranger)).await.status, StatusCode::FORBIDDEN);
    let seen = app.get(&format!("/api/tasks/{task}/dispute"), Some(&assigned.tasker)).await;
    assert_eq!(seen.body["id"], dispute["id"]);
    assert_ledger_audits(&app).await;
    app
}

async fn a_dispute_needs_a_known_reason_and_a_description(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 5_000).await;
    let path = format!("/api/tasks/{}/dispute", assigned.task);
    let unknown = app.post(&path, Some(&assigned.poster), json!({ "reason": "angry", "message": "x" })).await;
    assert_eq!(
        (unknown.status, unknown.field_error("reason")),
        (StatusCode::UNPROCESSABLE_ENTITY, "Please choose a reason")
    );
    let silent = app.post(&path, Some(&assigned.poster), json!({ "reason": "no_show", "message": "  " })).await;
    assert_eq!(silent.field_error("message"), "Please describe the problem");
    let garbage = app.client.post(app.url(&path)).bearer_auth(&assigned.poster).body("{").send().await.unwrap();
    assert_eq!(garbage.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        app.get(&format!("/api/tasks/{}/dispute", assigned.task), Some(&assigned.poster)).await.body,
        Value::Null
    );
    app
}

async fn an_open_dispute_closes_a_pending_cancellation_so_it_never_lapses(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 5_500).await;
    let asked = app
        .post(
            &format!("/api/tasks/{}/cancellation", assigned.task),
            Some(&assigned.tasker),
            json!({ "reason": "Busy" }),
        )
        .await;
    assert_eq!(asked.status, StatusCode::CREATED);
    open_dispute(&app, &assigned).await;
    let far = Timestamp::now().plus(CANCELLATION_ANSWER_WINDOW + Duration::from_secs(3600));
    let report = sweep::sweep(&app.server.state, far).await.unwrap();
    assert_eq!(report.cancellations_lapsed, 0);
    assert_eq!(task_status(&app, &assigned.task).await, "assigned");
    assert_eq!(kept_payment(&app, &assigned.task).await.status, PaymentStatus::Held);
    app
}

async fn an_operator_splits_the_escrow_between_poster_and_tasker(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    let dispute = open_dispute(&app, &assigned).await;
    let operator = poster(&app, OPERATOR).await;
    let me = app.get("/api/me", Some(&operator)).await;
    assert_eq!(me.body["user"]["is_operator"], true);
    assert_eq!(app.get("/api/me", Some(&assigned.poster)).await.body["user"]["is_operator"], false);
    assert_eq!(app.get("/api/admin/disputes", Some(&assigned.poster)).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get("/api/admin/disputes", None).await.status, StatusCode::UNAUTHORIZED);
    let forbidden = resolve(&app, &assigned.poster, &dispute, json!({ "outcome": "refund", "note": "Mine" })).await;
    assert_eq!(forbidden.status, StatusCode::FORBIDDEN);

    let queue = app.get("/api/admin/disputes", Some(&operator)).await;
    let [case] = queue.body["items"].as_array().unwrap().clone().try_into().unwrap();
    assert_eq!(case["id"], dispute["id"]);
    for (party, token) in [("poster", &assigned.poster), ("tasker", &assigned.tasker)] {
        let id = app.get("/api/me", Some(token)).await.body["user"]["id"].clone();
        assert_eq!(case[party]["id"], id, "the {party} is the {party}");
        let shown =
            app.get(&format!("/api/profiles/{}", id.as_str().unwrap()), None).await.body["display_name"].clone();
        assert_eq!(case[party]["name"], shown, "the {party}'s name");
    }
    assert_ne!(case["poster"]["name"], case["tasker"]["name"], "test users have names of their own");
    assert_eq!(
        (case["payment"]["amount_cents"].as_i64(), case["payment"]["status"].as_str()),
        (Some(10_000), Some("held"))
    );

    let whole =
        resolve(&app, &operator, &dispute, json!({ "outcome": "partial_refund", "refund_cents": 10_000, "note": "x" }))
            .await;
    assert_eq!(
        whole.field_error("refund_cents"),
        "A partial refund must be more than nothing and less than the whole payment"
    );
    let unexplained =
        resolve(&app, &operator, &dispute, json!({ "outcome": "partial_refund", "refund_cents": 2_500 })).await;
    assert_eq!(unexplained.field_error("note"), "Please explain the decision");

    let mut poster_socket = ready_socket(&app, &assigned.poster).await;
    let decided = resolve(
        &app,
        &operator,
        &dispute,
        json!({ "outcome": "partial_refund", "refund_cents": 2_500, "note": "Two doors needed redoing." }),
    )
    .await;
    assert_eq!(decided.status, StatusCode::OK, "{:?}", decided.body);
    assert_eq!(
        (decided.body["outcome"].as_str(), decided.body["refund_cents"].as_i64()),
        (Some("partial_refund"), Some(2_500))
    );
    let topic = user_topic(&app, &assigned.poster).await;
    let told =
        live::next_event_where(&mut poster_socket, &topic, "notification.created", |n| n["type"] == "dispute").await;
    assert_eq!(told["title"], "Dispute resolved: partly refunded");

    assert_eq!(task_status(&app, &assigned.task).await, "completed");
    let payment = kept_payment(&app, &assigned.task).await;
    assert_eq!((payment.status.as_str(), payment.refunded_cents, payment.fee_cents), ("released", 2_500, 750));
    let view = app.get(&format!("/api/tasks/{}/payment", assigned.task), Some(&assigned.tasker)).await.body;
    assert_eq!((view["payout_cents"].as_i64(), view["refunded_cents"].as_i64()), (Some(6_750), Some(2_500)));
    let mut calls: Vec<_> = calls_of(&app, payment.id)
        .await
        .into_iter()
        .map(|c| (c.kind.to_string(), c.amount_cents, c.status.to_string()))
        .collect();
    calls.sort();
    assert_eq!(calls, [("refund".into(), 2_500, "done".into()), ("transfer".into(), 6_750, "done".into())]);
    assert_eq!(
        resolve(&app, &operator, &dispute, json!({ "outcome": "refund", "note": "Again" })).await.status,
        StatusCode::CONFLICT
    );
    let resolved = app.get("/api/admin/disputes?status=resolved", Some(&operator)).await;
    assert_eq!(resolved.body["items"][0]["resolution_note"], "Two doors needed redoing.");
    assert_ledger_audits(&app).await;
    app
}

async fn an_operator_refunds_in_full_or_releases_in_full(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let refunded = assigned_task(&app, 8_000).await;
    let dispute = open_dispute(&app, &refunded).await;
    let decided = resolve(&app, &operator, &dispute, json!({ "outcome": "refund", "note": "No show" })).await;
    assert_eq!(decided.body["outcome"], "refund", "{:?}", decided.body);
    assert_eq!(task_status(&app, &refunded.task).await, "cancelled");
    let payment = kept_payment(&app, &refunded.task).await;
    assert_eq!((payment.status.as_str(), payment.refunded_cents), ("refunded", 8_000));
    assert!(notification_titles(&app, &refunded.tasker).await.contains(&"Dispute resolved: refunded".to_owned()));

    let released = assigned_task(&app, 9_000).await;
    let dispute = open_dispute(&app, &released).await;
    let decided = resolve(&app, &operator, &dispute, json!({ "outcome": "release", "note": "Work was done" })).await;
    assert_eq!(decided.body["outcome"], "release", "{:?}", decided.body);
    assert_eq!(task_status(&app, &released.task).await, "completed");
    let payment = kept_payment(&app, &released.task).await;
    assert_eq!(payment.status, PaymentStatus::Released);
    assert!(payment.transfer_ref.is_some());
    assert_ledger_audits(&app).await;
    app
}

async fn the_poster_releasing_ends_the_dispute(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 6_000).await;
    open_dispute(&app, &assigned).await;
    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&assigned.poster), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    let dispute = app.get(&format!("/api/tasks/{}/dispute", assigned.task), Some(&assigned.poster)).await.body;
    assert_eq!((dispute["status"].as_str(), dispute["outcome"].as_str()), (Some("resolved"), Some("release")));
    assert_eq!(dispute["resolution_note"], "Released by the poster");
    assert_ledger_audits(&app).await;
    app
}

/// The dispute's description and the operator's note are counted in characters (two bytes each
/// here): 2000 is accepted, one more is refused with the field's message and changes nothing.
async fn a_description_and_a_decision_note_may_be_2000_characters_and_no_more(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let assigned = assigned_task(&app, 5_000).await;
    let path = format!("/api/tasks/{}/dispute", assigned.task);
    let too_long =
        app.post(&path, Some(&assigned.poster), json!({ "reason": "other", "message": "é".repeat(2001) })).await;
    assert_eq!(
        (too_long.status, too_long.field_error("message")),
        (StatusCode::UNPROCESSABLE_ENTITY, "Please keep the description under 2000 characters")
    );
    assert_eq!(app.get(&path, Some(&assigned.poster)).await.body, Value::Null, "no dispute opened");
    let longest =
        app.post(&path, Some(&assigned.poster), json!({ "reason": "other", "message": "é".repeat(2000) })).await;
    assert_eq!(longest.status, StatusCode::CREATED, "{:?}", longest.body);
    assert_eq!(longest.body["message"].as_str().map(|message| message.chars().count()), Some(2000));

    let note = |chars: usize| json!({ "outcome": "refund", "note": "é".repeat(chars) });
    let unexplained = resolve(&app, &operator, &longest.body, note(2001)).await;
    assert_eq!(
        (unexplained.status, unexplained.field_error("note")),
        (StatusCode::UNPROCESSABLE_ENTITY, "Please explain the decision")
    );
    assert_eq!(kept_payment(&app, &assigned.task).await.status, PaymentStatus::Held, "nothing decided");
    let decided = resolve(&app, &operator, &longest.body, note(2000)).await;
    assert_eq!(decided.status, StatusCode::OK, "{:?}", decided.body);
    assert_eq!(decided.body["resolution_note"].as_str().map(|note| note.chars().count()), Some(2000));
    assert_eq!(kept_payment(&app, &assigned.task).await.status, PaymentStatus::Refunded);
    app
}

/// The operators' queue: open disputes oldest first, resolved ones newest first. Each party's
/// notices link to the task and the tasker's says what a split pays them, after the fee.
async fn the_queue_orders_disputes_by_age_and_every_notice_links_to_its_task(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let first = assigned_task(&app, 10_000).await;
    let second = assigned_task(&app, 6_000).await;
    let (older, newer) = (open_dispute(&app, &first).await, open_dispute(&app, &second).await);
    let ids = |queue: common::Response| -> Vec<Value> {
        queue.body["items"].as_array().unwrap().iter().map(|case| case["id"].clone()).collect()
    };
    let open = ids(app.get("/api/admin/disputes", Some(&operator)).await);
    assert_eq!(open, [older["id"].clone(), newer["id"].clone()], "open: oldest first");

    let split = json!({ "outcome": "partial_refund", "refund_cents": 2_500, "note": "Two doors needed redoing." });
    assert_eq!(resolve(&app, &operator, &older, split).await.status, StatusCode::OK);
    let refund = json!({ "outcome": "refund", "note": "No show" });
    assert_eq!(resolve(&app, &operator, &newer, refund).await.status, StatusCode::OK);
    let resolved = ids(app.get("/api/admin/disputes?status=resolved", Some(&operator)).await);
    assert_eq!(resolved, [newer["id"].clone(), older["id"].clone()], "resolved: the last decided first");

    let link = format!("/task/{}", first.task);
    for token in [&first.poster, &first.tasker] {
        let page = app.get("/api/notifications", Some(token)).await.body;
        let notices: Vec<&Value> =
            page["items"].as_array().unwrap().iter().filter(|n| n["type"] == "dispute").collect();
        assert_eq!(notices.len(), 2, "opened and resolved: {notices:#?}");
        for notice in notices {
            assert_eq!(notice["link"], link.as_str(), "{notice:#?}");
        }
    }
    // 7 500 left to the tasker, less the 10% fee on it.
    let page = app.get("/api/notifications", Some(&first.tasker)).await.body;
    let paid = page["items"].as_array().unwrap().iter().find(|n| n["title"] == "Dispute resolved: partly paid");
    let message = paid.expect("the tasker's split notice")["message"].as_str().unwrap();
    assert!(message.contains("$67.50 AUD (after the 10% service fee) is paid to you"), "{message}");
    assert!(message.contains("$25.00 AUD is refunded to the poster"), "{message}");
    app
}

/// A dispute opened from a task read before another was opened (two at once): refused as a
/// conflict that says why, and only the first stays open.
async fn a_dispute_opened_on_a_stale_task_is_a_conflict(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 5_000).await;
    let db = &app.server.state.db;
    let stale = tasks::task(db, common::escrow::uuid(&assigned.task)).await.unwrap().unwrap();
    let first = open_dispute(&app, &assigned).await;
    let second = disputes::open(&app.server.state, &stale, stale.poster_id, "other", "Me too").await;
    match second {
        Err(DomainError::Conflict(message)) => {
            assert_eq!(message, "Only an assigned task without an open dispute can be disputed");
        }
        other => panic!("a conflict, not {other:?}"),
    }
    let latest = app.get(&format!("/api/tasks/{}/dispute", assigned.task), Some(&assigned.poster)).await.body;
    assert_eq!((&latest["id"], latest["status"].as_str()), (&first["id"], Some("open")));
    app
}

on_both_backends!(config = with_operator;
    the_queue_orders_disputes_by_age_and_every_notice_links_to_its_task,
    a_dispute_opened_on_a_stale_task_is_a_conflict,
    a_dispute_stops_auto_release_and_every_other_move_of_the_task,
    a_dispute_needs_a_known_reason_and_a_description,
    an_open_dispute_closes_a_pending_cancellation_so_it_never_lapses,
    an_operator_splits_the_escrow_between_poster_and_tasker,
    an_operator_refunds_in_full_or_releases_in_full,
    the_poster_releasing_ends_the_dispute,
    a_description_and_a_decision_note_may_be_2000_characters_and_no_more,
);
