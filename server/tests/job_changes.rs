//! The other changes after assignment, on both backends: a tip on release
//! (paid to the tasker in full, never holding the release up), rescheduling
//! (either party proposes, the other answers within 48 hours, the sweep lapses
//! it), cancellations that record a reason and whom they are attributed to,
//! and the completion rate those attributions feed. Refusals leave the task's
//! rows unchanged; the ledger audit runs after every scenario.

use domain::{config::Config, payments::sweep};
use store::db::Timestamp;

use crate::common;

use std::time::Duration;

use common::{
    TestApp,
    escrow::{
        Assigned, assert_ledger_audits, assign, assigned_task, calls_of, notification_messages, notification_titles,
        pay, payments_of, verify,
    },
    live,
    market::{date_in, id, post_task, poster, tasker},
    rows::{assert_task_unchanged, task_snapshot},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

fn configure(config: &mut Config) {
    config.payments_sweep_secs = 0;
}

async fn release(app: &TestApp, assigned: &Assigned, body: Value) -> common::Response {
    app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&assigned.poster), body).await
}

/// `(purpose, status, amount, fee)` of the task's payments, oldest first.
async fn payments(app: &TestApp, task: &str) -> Vec<(String, String, i64, i64)> {
    payments_of(app, task)
        .await
        .into_iter()
        .map(|p| (p.purpose.to_string(), p.status.to_string(), p.amount_cents, p.fee_cents))
        .collect()
}

fn payment(purpose: &str, status: &str, amount: i64, fee: i64) -> (String, String, i64, i64) {
    (purpose.to_owned(), status.to_owned(), amount, fee)
}

async fn a_tip_is_paid_to_the_tasker_in_full(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    let before = task_snapshot(&app, &assigned.task).await;
    for (tip, what) in [(json!(50), "under a dollar"), (json!(50_001), "over $500"), (json!("ten"), "not a number")] {
        let refused = release(&app, &assigned, json!({ "tip_cents": tip })).await;
        assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY, "{what}: {:?}", refused.body);
        assert_task_unchanged(&app, &assigned.task, &before, what).await;
    }
    let released = release(&app, &assigned, json!({ "tip_cents": 1_000 })).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    assert_eq!(released.body["status"], "completed", "the release does not wait for the tip");
    let url = released.body["tip"]["url"].as_str().expect("a checkout for the tip").to_owned();
    let session = released.body["tip"]["session_id"].as_str().unwrap().to_owned();
    pay(&app, &url).await;
    let verified = verify(&app, &assigned.poster, &session, &assigned.task, &assigned.offer).await;
    assert_eq!(verified.body["payment_status"], "released", "{:?}", verified.body);
    assert_eq!(
        payments(&app, &assigned.task).await,
        [payment("task", "released", 10_000, 1_000), payment("tip", "released", 1_000, 0)]
    );
    let tip = payments_of(&app, &assigned.task).await.pop().unwrap();
    let calls: Vec<_> =
        calls_of(&app, tip.id).await.into_iter().map(|c| (c.kind.to_string(), c.amount_cents)).collect();
    assert_eq!(calls, [("transfer".to_owned(), 1_000)], "the whole tip goes to the tasker");
    assert!(notification_titles(&app, &assigned.tasker).await.contains(&"Tip received".to_owned()));
    let earnings = app.get("/api/me/earnings", Some(&assigned.tasker)).await.body;
    let lines: Vec<(String, i64, i64)> = earnings["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| {
            (
                line["purpose"].as_str().unwrap().to_owned(),
                line["fee_cents"].as_i64().unwrap(),
                line["payout_cents"].as_i64().unwrap(),
            )
        })
        .collect();
    assert!(lines.contains(&("tip".to_owned(), 0, 1_000)), "{lines:?}");
    assert!(lines.contains(&("task".to_owned(), 1_000, 9_000)), "{lines:?}");
    let escrow = app.get(&format!("/api/tasks/{}/payment", assigned.task), Some(&assigned.poster)).await.body;
    assert_eq!(escrow["total_cents"], 10_000, "a tip is not part of the escrow");
    let second = release(&app, &assigned, json!({ "tip_cents": 1_000 })).await;
    assert_eq!(second.status, StatusCode::CONFLICT, "a task is released (and tipped) once");
    assert_ledger_audits(&app).await;
    app
}

async fn an_unpaid_tip_leaves_the_release_alone_and_the_poster_is_told(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 8_000).await;
    let released = release(&app, &assigned, json!({ "tip_cents": 500 })).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(31 * 60))).await.unwrap();
    assert_eq!(
        payments(&app, &assigned.task).await,
        [payment("task", "released", 8_000, 800), payment("tip", "expired", 500, 0)]
    );
    assert!(notification_titles(&app, &assigned.poster).await.contains(&"Tip not paid".to_owned()));
    // A release without a body (as before tips) still works.
    let plain = assigned_task(&app, 6_000).await;
    let response = app
        .client
        .post(app.url(&format!("/api/tasks/{}/release", plain.task)))
        .bearer_auth(&plain.poster)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_ledger_audits(&app).await;
    app
}

/// A paid tip is transferred at once (the outbox is not left to the sweep), and both parties'
/// open pages hear of it: the notifications and the tip's payment, released.
async fn a_paid_tip_is_transferred_at_once_and_both_parties_see_it_live(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    let (mut tasker_socket, tasker_topic) = live::user_socket(&app, &assigned.tasker).await;
    let (mut poster_socket, poster_topic) = live::user_socket(&app, &assigned.poster).await;
    let released = release(&app, &assigned, json!({ "tip_cents": 1_500 })).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    pay(&app, released.body["tip"]["url"].as_str().unwrap()).await;
    let session = released.body["tip"]["session_id"].as_str().unwrap();
    let verified = verify(&app, &assigned.poster, session, &assigned.task, &assigned.offer).await;
    assert_eq!(verified.body["payment_status"], "released", "{:?}", verified.body);

    let tip = payments_of(&app, &assigned.task).await.pop().unwrap();
    assert_eq!((tip.purpose.as_str(), tip.amount_cents), ("tip", 1_500));
    let calls: Vec<_> = calls_of(&app, tip.id)
        .await
        .into_iter()
        .map(|c| (c.kind.to_string(), c.amount_cents, c.status.to_string()))
        .collect();
    assert_eq!(calls, [("transfer".to_owned(), 1_500, "done".to_owned())], "sent with the confirmation");
    assert_eq!(tip.transfer_ref, Some(format!("tr_sandbox_{}", tip.id.simple())));

    let told = live::next_event_where(&mut tasker_socket, &tasker_topic, "notification.created", |n| {
        n["title"] == "Tip received"
    })
    .await;
    assert_eq!(told["link"], format!("/task/{}", assigned.task));
    live::next_event_where(&mut poster_socket, &poster_topic, "notification.created", |n| n["title"] == "Tip paid")
        .await;
    let tip_id = tip.id.to_string();
    for (socket, topic) in [(&mut tasker_socket, &tasker_topic), (&mut poster_socket, &poster_topic)] {
        let released = live::next_event_where(socket, topic, "payment.updated", |p| {
            p["id"] == tip_id.as_str() && p["status"] == "released"
        })
        .await;
        assert_eq!((released["amount_cents"].as_i64(), released["fee_cents"].as_i64()), (Some(1_500), Some(0)));
    }
    assert_ledger_audits(&app).await;
    app
}

async fn either_party_proposes_a_date_and_the_other_answers(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 9_000).await;
    let stranger = poster(&app, "date-stranger@example.com").await;
    let path = format!("/api/tasks/{}/reschedule", assigned.task);
    let before = task_snapshot(&app, &assigned.task).await;
    let refusals = [
        (&stranger, json!({ "due_date": date_in(5) }), StatusCode::FORBIDDEN, "a stranger"),
        (&assigned.tasker, json!({ "due_date": date_in(-1) }), StatusCode::UNPROCESSABLE_ENTITY, "a past date"),
        (&assigned.tasker, json!({ "due_date": "soon" }), StatusCode::UNPROCESSABLE_ENTITY, "not a date"),
        (
            &assigned.tasker,
            json!({ "due_date": date_in(5), "window": "x".repeat(41) }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "a long window",
        ),
    ];
    for (token, body, status, what) in refusals {
        let response = app.post(&path, Some(token), body).await;
        assert_eq!(response.status, status, "{what}: {:?}", response.body);
        assert_task_unchanged(&app, &assigned.task, &before, what).await;
    }

    let poster_id = app.get("/api/me", Some(&assigned.poster)).await.body["user"]["id"].as_str().unwrap().to_owned();
    let mut watcher = live::connect(&app, None).await;
    live::subscribe(&mut watcher, &format!("task:{}", assigned.task)).await;
    let mut poster_socket = live::connect(&app, Some(&assigned.poster)).await;
    // Its automatic `user:{id}` subscription is in place once a ping is answered.
    live::send_json(&mut poster_socket, json!({ "type": "ping" })).await;
    while live::next_json(&mut poster_socket).await["type"] != "pong" {}
    let new_date = date_in(6);
    let proposed = app
        .post(&path, Some(&assigned.tasker), json!({ "due_date": new_date, "window": "8am-12pm", "note": "Rain" }))
        .await;
    assert_eq!(proposed.status, StatusCode::CREATED, "{:?}", proposed.body);
    assert_eq!(
        (proposed.body["status"].as_str(), proposed.body["window"].as_str()),
        (Some("pending"), Some("8am-12pm"))
    );
    let event = live::next_event(&mut poster_socket, &format!("user:{poster_id}"), "reschedule.created").await;
    assert_eq!(event["due_date"], new_date);
    assert!(notification_titles(&app, &assigned.poster).await.contains(&"New date proposed".to_owned()));
    let before = task_snapshot(&app, &assigned.task).await;
    assert_eq!(
        app.post(&path, Some(&assigned.poster), json!({ "due_date": date_in(7) })).await.status,
        StatusCode::CONFLICT
    );
    let accept = format!("/api/reschedules/{}/accept", proposed.body["id"].as_str().unwrap());
    assert_eq!(
        app.post(&accept, Some(&assigned.tasker), json!({})).await.status,
        StatusCode::FORBIDDEN,
        "not one's own"
    );
    assert_eq!(app.post(&accept, Some(&stranger), json!({})).await.status, StatusCode::NOT_FOUND);
    assert_task_unchanged(&app, &assigned.task, &before, "refused answers").await;

    let accepted = app.post(&accept, Some(&assigned.poster), json!({})).await;
    assert_eq!(accepted.status, StatusCode::OK, "{:?}", accepted.body);
    assert_eq!(accepted.body["status"], "accepted");
    let updated = live::next_event(&mut watcher, &format!("task:{}", assigned.task), "task.updated").await;
    assert_eq!(updated["due_date"], new_date, "watchers see the new date live");
    assert_eq!(app.get(&format!("/api/tasks/{}", assigned.task), None).await.body["due_date"], new_date);
    assert_eq!(app.post(&accept, Some(&assigned.poster), json!({})).await.status, StatusCode::CONFLICT);

    // The poster proposes; silence for 48 hours changes nothing.
    let second = app.post(&path, Some(&assigned.poster), json!({ "due_date": date_in(9) })).await;
    assert_eq!(second.status, StatusCode::CREATED);
    let early = sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(47 * 3600))).await.unwrap();
    assert_eq!(early.reschedules_lapsed, 0);
    let late = sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(49 * 3600))).await.unwrap();
    assert_eq!(late.reschedules_lapsed, 1);
    assert_eq!(app.get(&format!("/api/tasks/{}", assigned.task), None).await.body["due_date"], new_date);
    let listed = app.get(&format!("/api/tasks/{}/reschedules", assigned.task), Some(&assigned.tasker)).await;
    let statuses: Vec<&str> =
        listed.body["items"].as_array().unwrap().iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["accepted", "lapsed"]);
    app
}

async fn cancellations_record_a_reason_and_whom_they_are_attributed_to(app: TestApp) -> TestApp {
    let owner = poster(&app, "reasons-poster@example.com").await;
    let open = id(&post_task(&app, &owner, json!({})).await);
    let before = task_snapshot(&app, &open).await;
    let unknown = app.post(&format!("/api/tasks/{open}/cancel"), Some(&owner), json!({ "reason_code": "bored" })).await;
    assert_eq!(unknown.field_error("reason_code"), "Please choose a reason from the list");
    assert_task_unchanged(&app, &open, &before, "an unknown reason").await;
    let cancelled = app
        .post(&format!("/api/tasks/{open}/cancel"), Some(&owner), json!({ "reason_code": "found_someone_else" }))
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{:?}", cancelled.body);
    assert_eq!(cancellation_of(&app, &open).await, ("found_someone_else".to_owned(), "poster".to_owned()));

    let assigned = assigned_task(&app, 7_000).await;
    let path = format!("/api/tasks/{}/cancellation", assigned.task);
    let asked = app
        .post(&path, Some(&assigned.tasker), json!({ "reason": "Double-booked", "reason_code": "tasker_unavailable" }))
        .await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    assert_eq!(app.post(&format!("{path}/accept"), Some(&assigned.poster), json!({})).await.status, StatusCode::OK);
    assert_eq!(cancellation_of(&app, &assigned.task).await, ("tasker_unavailable".to_owned(), "tasker".to_owned()));
    assert_ledger_audits(&app).await;
    app
}

/// Silence is nobody's confession: a request left unanswered for 48 hours lapses into a
/// cancellation attributed to the one who asked, or to nobody, never to the party who did not
/// answer (security review 3: a poster citing `tasker_no_show` and waiting counted against the
/// tasker). One row per requester and kind of reason.
async fn a_lapsed_cancellation_never_blames_the_party_who_did_not_answer(app: TestApp) -> TestApp {
    for (asker_is_poster, reason_code, expected) in [
        (true, "tasker_no_show", "none"),
        (true, "tasker_unavailable", "none"),
        (true, "no_longer_needed", "poster"),
        (true, "other", "poster"),
        (true, "mutual_agreement", "none"),
        (false, "poster_unresponsive", "none"),
        (false, "tasker_unavailable", "tasker"),
        (false, "other", "tasker"),
    ] {
        let assigned = assigned_task(&app, 7_000).await;
        let asker = if asker_is_poster { &assigned.poster } else { &assigned.tasker };
        let path = format!("/api/tasks/{}/cancellation", assigned.task);
        let asked =
            app.post(&path, Some(asker), json!({ "reason": "Plans changed", "reason_code": reason_code })).await;
        assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
        let swept =
            sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(49 * 3600))).await.unwrap();
        assert_eq!(swept.cancellations_lapsed, 1, "{reason_code}");
        assert_eq!(
            cancellation_of(&app, &assigned.task).await,
            (reason_code.to_owned(), expected.to_owned()),
            "asked by the {}, {reason_code}",
            if asker_is_poster { "poster" } else { "tasker" }
        );
    }
    assert_ledger_audits(&app).await;
    app
}

/// A reason of 1,000 characters (two bytes each) is taken; one more is refused and changes nothing.
async fn a_cancellation_reason_may_be_1000_characters_and_no_more(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 7_000).await;
    let path = format!("/api/tasks/{}/cancellation", assigned.task);
    let before = task_snapshot(&app, &assigned.task).await;
    let too_long = app.post(&path, Some(&assigned.poster), json!({ "reason": "é".repeat(1001) })).await;
    assert_eq!(too_long.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", too_long.body);
    assert_eq!(too_long.field_error("reason"), "Please give a reason for cancelling");
    assert_task_unchanged(&app, &assigned.task, &before, "a reason of 1,001 characters").await;
    let longest = app.post(&path, Some(&assigned.poster), json!({ "reason": "é".repeat(1000) })).await;
    assert_eq!(longest.status, StatusCode::CREATED, "{:?}", longest.body);
    assert_eq!(longest.body["reason"], "é".repeat(1000));
    app
}

/// Whoever asks to cancel, the other party is told (with the reason), and the asker is not.
async fn a_cancellation_request_is_told_to_the_other_party_only(app: TestApp) -> TestApp {
    let by_poster = assigned_task(&app, 7_000).await;
    let by_tasker = assigned_task(&app, 7_000).await;
    for (assigned, asker, other, reason) in [
        (&by_poster, &by_poster.poster, &by_poster.tasker, "The garden flooded"),
        (&by_tasker, &by_tasker.tasker, &by_tasker.poster, "My van broke down"),
    ] {
        let path = format!("/api/tasks/{}/cancellation", assigned.task);
        let asked = app.post(&path, Some(asker), json!({ "reason": reason })).await;
        assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
        let told = notification_messages(&app, other, "Cancellation requested").await;
        assert_eq!(told.len(), 1, "{reason}: {told:?}");
        let expected = format!("A cancellation of \"Assemble wardrobes\" was requested: {reason}.");
        assert!(told[0].starts_with(&expected), "{}", told[0]);
        assert_eq!(
            notification_messages(&app, asker, "Cancellation requested").await,
            Vec::<String>::new(),
            "{reason}"
        );
    }
    app
}

async fn cancellation_of(app: &TestApp, task: &str) -> (String, String) {
    let task: uuid::Uuid = task.parse().unwrap();
    store::on_pool!(&app.server.state.db, |pool| {
        sqlx::query_as::<_, (String, String)>(
            "select cancellation_reason, cancellation_attributed_to from tasks where id = $1",
        )
        .bind(task)
        .fetch_one(pool)
        .await
    })
    .unwrap()
}

/// `asker` asks to cancel with `reason_code`, and `answerer` accepts.
async fn cancel(app: &TestApp, assigned: &Assigned, asker: &str, answerer: &str, reason_code: &str) {
    let path = format!("/api/tasks/{}/cancellation", assigned.task);
    let asked = app.post(&path, Some(asker), json!({ "reason": "Plans changed", "reason_code": reason_code })).await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    let accepted = app.post(&format!("{path}/accept"), Some(answerer), json!({})).await;
    assert_eq!(accepted.status, StatusCode::OK, "{:?}", accepted.body);
}

async fn completion_rate(app: &TestApp, profile: &str) -> Value {
    app.get(profile, None).await.body["completion_rate"].clone()
}

async fn the_completion_rate_counts_only_the_taskers_cancellations(app: TestApp) -> TestApp {
    let owner = poster(&app, "rate-poster@example.com").await;
    let worker = tasker(&app, "rate-tasker@example.com").await;
    let worker_id = app.get("/api/me", Some(&worker)).await.body["user"]["id"].as_str().unwrap().to_owned();
    let path = format!("/api/profiles/{worker_id}");
    for _ in 0..4 {
        let assigned = assign(&app, &owner, &worker, 5_000).await;
        assert_eq!(release(&app, &assigned, json!({})).await.status, StatusCode::OK);
    }
    assert_eq!(completion_rate(&app, &path).await, Value::Null, "not shown under 5 tasks");
    // Cancelled on the poster's account: counts neither way.
    let theirs = assign(&app, &owner, &worker, 5_000).await;
    cancel(&app, &theirs, &owner, &worker, "no_longer_needed").await;
    assert_eq!(completion_rate(&app, &path).await, Value::Null);
    // Cancelled on the tasker's account: counts against them.
    let mine = assign(&app, &owner, &worker, 5_000).await;
    cancel(&app, &mine, &worker, &owner, "tasker_unavailable").await;
    assert_eq!(completion_rate(&app, &path).await, json!(80));
    let done = assign(&app, &owner, &worker, 5_000).await;
    assert_eq!(release(&app, &done, json!({})).await.status, StatusCode::OK);
    assert_eq!(completion_rate(&app, &path).await, json!(83));
    assert_ledger_audits(&app).await;
    app
}

on_both_backends!(config = configure;
    a_tip_is_paid_to_the_tasker_in_full,
    an_unpaid_tip_leaves_the_release_alone_and_the_poster_is_told,
    either_party_proposes_a_date_and_the_other_answers,
    cancellations_record_a_reason_and_whom_they_are_attributed_to,
    a_lapsed_cancellation_never_blames_the_party_who_did_not_answer,
    the_completion_rate_counts_only_the_taskers_cancellations,
    a_paid_tip_is_transferred_at_once_and_both_parties_see_it_live,
    a_cancellation_reason_may_be_1000_characters_and_no_more,
    a_cancellation_request_is_told_to_the_other_party_only,
);
