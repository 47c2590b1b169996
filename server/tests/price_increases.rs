//! Price increases on both backends: the assigned tasker asks for more, the
//! poster approves and pays the difference through the sandbox checkout (or
//! declines, or lets it lapse), and the paid difference joins the escrow with
//! its own ledger rows: released with it, refunded with it on cancellation,
//! split with it by a dispute. Every refusal leaves the task's rows unchanged,
//! races have one winner, and the ledger audit runs after every scenario.

use domain::{config::Config, payments::sweep};
use store::{db::Timestamp, payments::PaymentRow, price_increases};

use crate::common;

use std::{collections::BTreeMap, time::Duration};

use common::{
    TestApp,
    escrow::{Assigned, assert_ledger_audits, assigned_task, calls_of, notification_titles, pay, payments_of, uuid},
    live,
    market::poster,
    rows::{assert_task_unchanged, task_snapshot},
};
use reqwest::{StatusCode, header};
use serde_json::{Value, json};

const OPERATOR: &str = "increase-operator@example.com";

fn configure(config: &mut Config) {
    config.payments_sweep_secs = 0;
    config.admin_emails = vec![OPERATOR.into()];
}

async fn ask(app: &TestApp, assigned: &Assigned, amount_cents: i64) -> common::Response {
    app.post(
        &format!("/api/tasks/{}/price-increases", assigned.task),
        Some(&assigned.tasker),
        json!({ "amount_cents": amount_cents, "reason": "The fence is 10 metres longer than described" }),
    )
    .await
}

async fn asked(app: &TestApp, assigned: &Assigned, amount_cents: i64) -> Value {
    let response = ask(app, assigned, amount_cents).await;
    assert_eq!(response.status, StatusCode::CREATED, "{:?}", response.body);
    response.body
}

fn increase_path(increase: &Value, action: &str) -> String {
    format!("/api/price-increases/{}/{action}", increase["id"].as_str().unwrap())
}

/// Approves `increase` as the poster; the checkout's session id and url.
async fn approve(app: &TestApp, assigned: &Assigned, increase: &Value) -> (String, String) {
    let approved = app.post(&increase_path(increase, "approve"), Some(&assigned.poster), json!({})).await;
    assert_eq!(approved.status, StatusCode::OK, "{:?}", approved.body);
    (approved.body["session_id"].as_str().unwrap().to_owned(), approved.body["url"].as_str().unwrap().to_owned())
}

async fn verify(app: &TestApp, assigned: &Assigned, session: &str) -> common::Response {
    app.post(
        "/api/payments/verify",
        Some(&assigned.poster),
        json!({ "session_id": session, "task_id": assigned.task, "offer_id": assigned.offer }),
    )
    .await
}

/// Asks for `amount_cents` more, approves it and pays it by card; the increase.
async fn paid_increase(app: &TestApp, assigned: &Assigned, amount_cents: i64) -> Value {
    let increase = asked(app, assigned, amount_cents).await;
    let (session, url) = approve(app, assigned, &increase).await;
    pay(app, &url).await;
    let verified = verify(app, assigned, &session).await;
    assert_eq!(verified.body["success"], true, "{:?}", verified.body);
    increase
}

async fn increase_status(app: &TestApp, increase: &Value) -> String {
    let id = uuid(increase["id"].as_str().unwrap());
    price_increases::increase(&app.server.state.db, id).await.unwrap().unwrap().status.to_string()
}

/// The task's payments as `(purpose, status, amount, refunded)`, oldest first.
async fn escrow_of(app: &TestApp, task: &str) -> Vec<(String, String, i64, i64)> {
    payments_of(app, task)
        .await
        .into_iter()
        .map(|p: PaymentRow| (p.purpose.to_string(), p.status.to_string(), p.amount_cents, p.refunded_cents))
        .collect()
}

fn row(purpose: &str, status: &str, amount: i64, refunded: i64) -> (String, String, i64, i64) {
    (purpose.to_owned(), status.to_owned(), amount, refunded)
}

/// The provider calls of the task's payments as `(purpose, kind, amount)`.
async fn calls_for(app: &TestApp, task: &str) -> Vec<(String, String, i64)> {
    let mut calls = Vec::new();
    for payment in payments_of(app, task).await {
        for call in calls_of(app, payment.id).await {
            calls.push((payment.purpose.to_string(), call.kind.to_string(), call.amount_cents));
        }
    }
    calls.sort();
    calls
}

fn call(purpose: &str, kind: &str, amount: i64) -> (String, String, i64) {
    (purpose.to_owned(), kind.to_owned(), amount)
}

async fn a_paid_increase_joins_the_escrow_and_is_released_with_it(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    let increase = asked(&app, &assigned, 4_000).await;
    assert_eq!((increase["status"].as_str(), increase["amount_cents"].as_i64()), (Some("pending"), Some(4_000)));
    assert!(notification_titles(&app, &assigned.poster).await.contains(&"Price increase requested".to_owned()));
    let listed = app.get(&format!("/api/tasks/{}/price-increases", assigned.task), Some(&assigned.poster)).await;
    assert_eq!(listed.body["items"][0]["id"], increase["id"]);

    let (session, url) = approve(&app, &assigned, &increase).await;
    assert_eq!(increase_status(&app, &increase).await, "approved");
    assert_ledger_audits(&app).await;
    let redirect = pay(&app, &url).await;
    assert!(redirect.contains(&session), "{redirect}");
    let verified = verify(&app, &assigned, &session).await;
    assert_eq!(verified.body["success"], true, "{:?}", verified.body);
    assert_eq!(verified.body["payment_info"]["amount_cents"], 4_000);
    assert_eq!(verified.body["task_status"], "assigned");
    assert_eq!(increase_status(&app, &increase).await, "paid");
    assert!(notification_titles(&app, &assigned.tasker).await.contains(&"Price increase paid".to_owned()));
    assert_eq!(
        escrow_of(&app, &assigned.task).await,
        [row("task", "held", 10_000, 0), row("increase", "held", 4_000, 0)]
    );
    let escrow = app.get(&format!("/api/tasks/{}/payment", assigned.task), Some(&assigned.tasker)).await.body;
    let totals = (escrow["amount_cents"].as_i64(), escrow["increases_cents"].as_i64(), escrow["total_cents"].as_i64());
    assert_eq!(totals, (Some(10_000), Some(4_000), Some(14_000)));
    assert_ledger_audits(&app).await;
    // Verifying again changes nothing.
    let before = task_snapshot(&app, &assigned.task).await;
    assert_eq!(verify(&app, &assigned, &session).await.body["success"], true);
    assert_task_unchanged(&app, &assigned.task, &before, "a second verify").await;

    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&assigned.poster), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    assert_eq!(
        escrow_of(&app, &assigned.task).await,
        [row("task", "released", 10_000, 0), row("increase", "released", 4_000, 0)]
    );
    assert_eq!(
        calls_for(&app, &assigned.task).await,
        [call("increase", "transfer", 3_600), call("task", "transfer", 9_000)]
    );
    assert_ledger_audits(&app).await;
    app
}

async fn refusals_leave_the_task_unchanged(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    let stranger = poster(&app, "increase-stranger@example.com").await;
    let path = format!("/api/tasks/{}/price-increases", assigned.task);
    let body = |amount: Value, reason: &str| json!({ "amount_cents": amount, "reason": reason });
    let before = task_snapshot(&app, &assigned.task).await;
    let refusals = [
        (&assigned.poster, body(json!(1_000), "More"), StatusCode::FORBIDDEN, "the poster asking"),
        (&stranger, body(json!(1_000), "More"), StatusCode::FORBIDDEN, "a stranger asking"),
        (&assigned.tasker, body(json!(0), "More"), StatusCode::UNPROCESSABLE_ENTITY, "nothing more"),
        (&assigned.tasker, body(json!(-500), "More"), StatusCode::UNPROCESSABLE_ENTITY, "less"),
        (&assigned.tasker, body(json!("lots"), "More"), StatusCode::UNPROCESSABLE_ENTITY, "not a number"),
        (&assigned.tasker, body(json!(1_000), "  "), StatusCode::UNPROCESSABLE_ENTITY, "no reason"),
        (&assigned.tasker, body(json!(10_001), "More"), StatusCode::UNPROCESSABLE_ENTITY, "over the original amount"),
    ];
    for (token, body, status, what) in refusals {
        let response = app.post(&path, Some(token), body).await;
        assert_eq!(response.status, status, "{what}: {:?}", response.body);
        assert_task_unchanged(&app, &assigned.task, &before, what).await;
    }
    assert_eq!(
        ask(&app, &assigned, 10_001).await.field_error("amount_cents"),
        "Price increases can add up to at most $100.00 AUD on this task"
    );
    assert_eq!(app.get(&path, Some(&stranger)).await.status, StatusCode::FORBIDDEN);

    let increase = asked(&app, &assigned, 6_000).await;
    let before = task_snapshot(&app, &assigned.task).await;
    assert_eq!(ask(&app, &assigned, 1_000).await.status, StatusCode::CONFLICT, "one pending at a time");
    let approve_path = increase_path(&increase, "approve");
    let decline_path = increase_path(&increase, "decline");
    let answers = [
        (&approve_path, &assigned.tasker, StatusCode::FORBIDDEN, "the tasker approving"),
        (&decline_path, &assigned.tasker, StatusCode::FORBIDDEN, "the tasker declining"),
        (&approve_path, &stranger, StatusCode::NOT_FOUND, "a stranger approving"),
        (&decline_path, &stranger, StatusCode::NOT_FOUND, "a stranger declining"),
    ];
    for (path, token, status, what) in answers {
        assert_eq!(app.post(path, Some(token), json!({})).await.status, status, "{what}");
        assert_task_unchanged(&app, &assigned.task, &before, what).await;
    }
    let long = app.post(&decline_path, Some(&assigned.poster), json!({ "reason": "x".repeat(1001) })).await;
    assert_eq!(long.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_task_unchanged(&app, &assigned.task, &before, "a reason too long").await;

    let declined =
        app.post(&decline_path, Some(&assigned.poster), json!({ "reason": "We agreed a fixed price" })).await;
    assert_eq!(declined.status, StatusCode::OK, "{:?}", declined.body);
    assert_eq!(
        (declined.body["status"].as_str(), declined.body["decline_reason"].as_str()),
        (Some("declined"), Some("We agreed a fixed price"))
    );
    assert!(notification_titles(&app, &assigned.tasker).await.contains(&"Price increase declined".to_owned()));
    let before = task_snapshot(&app, &assigned.task).await;
    assert_eq!(app.post(&approve_path, Some(&assigned.poster), json!({})).await.status, StatusCode::CONFLICT);
    assert_eq!(app.post(&decline_path, Some(&assigned.poster), json!({})).await.status, StatusCode::CONFLICT);
    assert_task_unchanged(&app, &assigned.task, &before, "answering a declined increase").await;

    // A declined increase does not count against the cap; paid ones do.
    paid_increase(&app, &assigned, 7_000).await;
    let before = task_snapshot(&app, &assigned.task).await;
    assert_eq!(ask(&app, &assigned, 3_001).await.status, StatusCode::UNPROCESSABLE_ENTITY, "7,000 + 3,001 > 10,000");
    assert_task_unchanged(&app, &assigned.task, &before, "over the cap with a paid increase").await;
    asked(&app, &assigned, 3_000).await;

    // Not once the tasker has asked to be paid.
    let other = assigned_task(&app, 8_000).await;
    app.post(&format!("/api/tasks/{}/request-payment", other.task), Some(&other.tasker), json!({})).await;
    let before = task_snapshot(&app, &other.task).await;
    assert_eq!(ask(&app, &other, 1_000).await.status, StatusCode::CONFLICT);
    assert_task_unchanged(&app, &other.task, &before, "asking while waiting for release").await;
    assert_ledger_audits(&app).await;
    app
}

async fn an_unanswered_increase_lapses_and_an_unpaid_approval_can_be_approved_again(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    let increase = asked(&app, &assigned, 2_000).await;
    let (_, _) = approve(&app, &assigned, &increase).await;
    // The checkout is abandoned: past its 30 minutes the increase waits for the poster again.
    let report = sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(31 * 60))).await.unwrap();
    assert_eq!(report.checkouts_checked, 1, "{report:?}");
    assert_eq!(increase_status(&app, &increase).await, "pending");
    assert_eq!(
        escrow_of(&app, &assigned.task).await,
        [row("task", "held", 10_000, 0), row("increase", "expired", 2_000, 0)]
    );
    let (session, url) = approve(&app, &assigned, &increase).await;
    pay(&app, &url).await;
    assert_eq!(verify(&app, &assigned, &session).await.body["success"], true);
    assert_ledger_audits(&app).await;

    let mut sockets =
        [live::user_socket(&app, &assigned.poster).await, live::user_socket(&app, &assigned.tasker).await];
    let second = asked(&app, &assigned, 1_000).await;
    for (socket, topic) in &mut sockets {
        let (event, data) = next_increase_event(socket, topic).await;
        assert_eq!((event.as_str(), data["status"].as_str()), ("price_increase.created", Some("pending")), "{topic}");
    }
    let early = sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(71 * 3600))).await.unwrap();
    assert_eq!(early.price_increases_lapsed, 0);
    let late = sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(73 * 3600))).await.unwrap();
    assert_eq!(late.price_increases_lapsed, 1);
    assert_eq!(increase_status(&app, &second).await, "lapsed");
    // Both parties' open pages hear of it as a change of the increase they were shown, not a new one.
    for (socket, topic) in &mut sockets {
        let (event, data) = next_increase_event(socket, topic).await;
        assert_eq!((event.as_str(), &data["id"]), ("price_increase.updated", &second["id"]), "{topic}");
        assert_eq!(data["status"], "lapsed", "{topic}");
    }
    assert!(notification_titles(&app, &assigned.tasker).await.contains(&"Price increase lapsed".to_owned()));
    let again = sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(73 * 3600))).await.unwrap();
    assert_eq!(again.price_increases_lapsed, 0);
    assert_eq!(
        app.post(&increase_path(&second, "approve"), Some(&assigned.poster), json!({})).await.status,
        StatusCode::CONFLICT
    );
    assert_ledger_audits(&app).await;
    app
}

async fn a_cancellation_refunds_the_increases_with_the_payment(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    paid_increase(&app, &assigned, 3_000).await;
    let pending = asked(&app, &assigned, 1_000).await;
    let path = format!("/api/tasks/{}/cancellation", assigned.task);
    let requested = app.post(&path, Some(&assigned.tasker), json!({ "reason": "I broke my wrist" })).await;
    assert_eq!(requested.status, StatusCode::CREATED, "{:?}", requested.body);
    let accepted = app.post(&format!("{path}/accept"), Some(&assigned.poster), json!({})).await;
    assert_eq!(accepted.status, StatusCode::OK, "{:?}", accepted.body);
    assert_eq!(
        escrow_of(&app, &assigned.task).await,
        [row("task", "refunded", 10_000, 10_000), row("increase", "refunded", 3_000, 3_000)]
    );
    assert_eq!(
        calls_for(&app, &assigned.task).await,
        [call("increase", "refund", 3_000), call("task", "refund", 10_000)]
    );
    assert_eq!(increase_status(&app, &pending).await, "closed", "a pending increase is closed with the escrow");
    assert_ledger_audits(&app).await;
    app
}

async fn a_checkout_left_open_at_the_release_can_no_longer_be_paid(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    let increase = asked(&app, &assigned, 2_500).await;
    let (session, url) = approve(&app, &assigned, &increase).await;
    // The poster releases with the increase's checkout still open; the sandbox keeps its
    // page open until it is expired, so pay it before the release's expiry reaches it.
    let page = app.client.get(&url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&assigned.poster), json!({})).await;
    assert_eq!(released.status, StatusCode::OK);
    assert_eq!(increase_status(&app, &increase).await, "closed");
    let late =
        app.client.post(&url).form(&[("action", "pay"), ("card_number", "4242 4242 4242 4242")]).send().await.unwrap();
    assert_ne!(late.status(), StatusCode::SEE_OTHER, "the closed increase's checkout can no longer be paid");
    assert!(late.headers().get(header::LOCATION).is_none());
    let verified = verify(&app, &assigned, &session).await;
    assert_eq!(verified.body["success"], false, "{:?}", verified.body);
    assert_eq!(
        escrow_of(&app, &assigned.task).await,
        [row("task", "released", 10_000, 0), row("increase", "expired", 2_500, 0)]
    );
    assert_ledger_audits(&app).await;
    app
}

/// The bank's days pass in an instant: the sandbox debit of `session` is due now.
async fn settle_debit_now(app: &TestApp, session: &str) {
    store::on_pool!(&app.server.state.db, |pool| {
        sqlx::query("update sandbox_sessions set settles_at = 0 where id = $1")
            .bind(session)
            .execute(pool)
            .await
            .map(|_| ())
    })
    .unwrap();
}

async fn pay_by_debit(app: &TestApp, url: &str) {
    let debit =
        app.client.post(url).form(&[("action", "debit"), ("account_number", "000123456")]).send().await.unwrap();
    assert_eq!(debit.status(), StatusCode::SEE_OTHER);
}

async fn a_late_settling_increase_joins_the_escrow_when_the_bank_confirms(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    let increase = asked(&app, &assigned, 5_000).await;
    let (session, url) = approve(&app, &assigned, &increase).await;
    pay_by_debit(&app, &url).await;
    let verified = verify(&app, &assigned, &session).await;
    assert_eq!(verified.body["payment_status"], "processing", "{:?}", verified.body);
    assert_eq!(increase_status(&app, &increase).await, "approved");
    // Long past the increase's 72 hours, a processing payment neither expires nor lapses.
    let report = sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(80 * 3600))).await.unwrap();
    assert_eq!((report.price_increases_lapsed, report.checkouts_checked), (0, 1), "{report:?}");
    assert_eq!(increase_status(&app, &increase).await, "approved");
    assert_eq!(escrow_of(&app, &assigned.task).await[1], row("increase", "processing", 5_000, 0));
    settle_debit_now(&app, &session).await;
    sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(81 * 3600))).await.unwrap();
    assert_eq!(increase_status(&app, &increase).await, "paid");
    assert_eq!(
        escrow_of(&app, &assigned.task).await,
        [row("task", "held", 10_000, 0), row("increase", "held", 5_000, 0)]
    );
    assert_ledger_audits(&app).await;

    // A second one settles after the task was released: refunded, never stranded.
    let second = asked(&app, &assigned, 1_000).await;
    let (session, url) = approve(&app, &assigned, &second).await;
    pay_by_debit(&app, &url).await;
    assert_eq!(verify(&app, &assigned, &session).await.body["payment_status"], "processing");
    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&assigned.poster), json!({})).await;
    assert_eq!(released.status, StatusCode::OK);
    assert_eq!(increase_status(&app, &second).await, "closed");
    assert_ledger_audits(&app).await;
    settle_debit_now(&app, &session).await;
    sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(10 * 60))).await.unwrap();
    assert_eq!(
        escrow_of(&app, &assigned.task).await,
        [
            row("task", "released", 10_000, 0),
            row("increase", "released", 5_000, 0),
            row("increase", "refunded", 1_000, 1_000)
        ]
    );
    assert!(notification_titles(&app, &assigned.poster).await.contains(&"Payment refunded".to_owned()));
    assert_ledger_audits(&app).await;
    app
}

async fn a_dispute_splits_the_whole_escrow(app: TestApp) -> TestApp {
    let operator = poster(&app, OPERATOR).await;
    let assigned = assigned_task(&app, 10_000).await;
    paid_increase(&app, &assigned, 4_000).await;
    let pending = asked(&app, &assigned, 1_000).await;
    let opened = app
        .post(
            &format!("/api/tasks/{}/dispute", assigned.task),
            Some(&assigned.poster),
            json!({ "reason": "poor_quality", "message": "Half the fence leans" }),
        )
        .await;
    assert_eq!(opened.status, StatusCode::CREATED, "{:?}", opened.body);
    assert_eq!(increase_status(&app, &pending).await, "closed", "a dispute closes the pending increase");
    let queue = app.get("/api/admin/disputes", Some(&operator)).await;
    let escrow = &queue.body["items"][0]["payment"];
    assert_eq!(
        (escrow["amount_cents"].as_i64(), escrow["fee_cents"].as_i64()),
        (Some(14_000), Some(1_400)),
        "the whole escrow is in dispute, with the fee of each payment in it"
    );
    let resolve = format!("/api/admin/disputes/{}/resolve", opened.body["id"].as_str().unwrap());
    let whole = app
        .post(&resolve, Some(&operator), json!({ "outcome": "partial_refund", "refund_cents": 14_000, "note": "x" }))
        .await;
    assert_eq!(whole.status, StatusCode::UNPROCESSABLE_ENTITY);
    let decided = app
        .post(&resolve, Some(&operator), json!({ "outcome": "partial_refund", "refund_cents": 12_000, "note": "Redo" }))
        .await;
    assert_eq!(decided.status, StatusCode::OK, "{:?}", decided.body);
    assert_eq!(
        escrow_of(&app, &assigned.task).await,
        [row("task", "refunded", 10_000, 10_000), row("increase", "released", 4_000, 2_000)]
    );
    assert_eq!(
        calls_for(&app, &assigned.task).await,
        [call("increase", "refund", 2_000), call("increase", "transfer", 1_800), call("task", "refund", 10_000)]
    );
    assert_ledger_audits(&app).await;

    let refunded = assigned_task(&app, 6_000).await;
    paid_increase(&app, &refunded, 1_500).await;
    let opened = app
        .post(
            &format!("/api/tasks/{}/dispute", refunded.task),
            Some(&refunded.poster),
            json!({ "reason": "no_show", "message": "Never came" }),
        )
        .await;
    let resolve = format!("/api/admin/disputes/{}/resolve", opened.body["id"].as_str().unwrap());
    let decided = app.post(&resolve, Some(&operator), json!({ "outcome": "refund", "note": "No show" })).await;
    assert_eq!(decided.status, StatusCode::OK, "{:?}", decided.body);
    assert_eq!(
        escrow_of(&app, &refunded.task).await,
        [row("task", "refunded", 6_000, 6_000), row("increase", "refunded", 1_500, 1_500)]
    );
    assert_ledger_audits(&app).await;
    app
}

/// A reason of 1,000 characters (two bytes each) is taken, to ask and to decline; one more is
/// refused and changes nothing (a decline's 1,001 is refused in `refusals_leave_the_task_unchanged`).
async fn a_reason_may_be_1000_characters_and_no_more(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    let path = format!("/api/tasks/{}/price-increases", assigned.task);
    let body = |reason: String| json!({ "amount_cents": 1_000, "reason": reason });
    let before = task_snapshot(&app, &assigned.task).await;
    let too_long = app.post(&path, Some(&assigned.tasker), body("é".repeat(1001))).await;
    assert_eq!(too_long.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", too_long.body);
    assert_eq!(too_long.field_error("reason"), "Please say why the price should increase");
    assert_task_unchanged(&app, &assigned.task, &before, "a reason of 1,001 characters").await;
    let longest = app.post(&path, Some(&assigned.tasker), body("é".repeat(1000))).await;
    assert_eq!(longest.status, StatusCode::CREATED, "{:?}", longest.body);
    assert_eq!(longest.body["reason"], "é".repeat(1000));
    let declined = app
        .post(&increase_path(&longest.body, "decline"), Some(&assigned.poster), json!({ "reason": "é".repeat(1000) }))
        .await;
    assert_eq!(declined.status, StatusCode::OK, "{:?}", declined.body);
    assert_eq!(declined.body["decline_reason"], "é".repeat(1000));
    app
}

/// The next `price_increase.*` event on `topic`, whichever it is: its name and data.
async fn next_increase_event(socket: &mut live::Socket, topic: &str) -> (String, Value) {
    loop {
        let message = live::next_json(socket).await;
        let event = message["event"].as_str().unwrap_or_default();
        if message["type"] == "event" && message["topic"] == topic && event.starts_with("price_increase.") {
            return (event.to_owned(), message["data"].clone());
        }
    }
}

/// Both parties' open pages follow an increase: `price_increase.created` when it is asked for,
/// `price_increase.updated` when it is approved, when its checkout is abandoned and when the
/// release closes it.
async fn both_parties_see_an_increase_asked_approved_and_closed_live(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    let mut sockets =
        [live::user_socket(&app, &assigned.poster).await, live::user_socket(&app, &assigned.tasker).await];
    let increase = asked(&app, &assigned, 2_000).await;
    for (socket, topic) in &mut sockets {
        let created = live::next_event(socket, topic, "price_increase.created").await;
        assert_eq!((&created["id"], created["status"].as_str()), (&increase["id"], Some("pending")), "{topic}");
    }
    approve(&app, &assigned, &increase).await;
    for (socket, topic) in &mut sockets {
        let approved = live::next_event(socket, topic, "price_increase.updated").await;
        assert_eq!((&approved["id"], approved["status"].as_str()), (&increase["id"], Some("approved")), "{topic}");
    }
    // The checkout is abandoned: the increase waits for the poster again, and both pages say so.
    sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(31 * 60))).await.unwrap();
    assert_eq!(increase_status(&app, &increase).await, "pending");
    for (socket, topic) in &mut sockets {
        let (event, reopened) = next_increase_event(socket, topic).await;
        assert_eq!((event.as_str(), &reopened["id"]), ("price_increase.updated", &increase["id"]), "{topic}");
        assert_eq!(reopened["status"], "pending", "{topic}");
    }
    // With no checkout of its own open, only the release's look at the task's increases can tell
    // the parties it closed.
    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&assigned.poster), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    for (socket, topic) in &mut sockets {
        let closed = live::next_event(socket, topic, "price_increase.updated").await;
        assert_eq!((&closed["id"], closed["status"].as_str()), (&increase["id"], Some("closed")), "{topic}");
    }
    app
}

/// Accepting a cancellation refunds a paid increase at once, with the task's payment: neither
/// refund is left to the sweep.
async fn accepting_a_cancellation_refunds_a_paid_increase_at_once(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    paid_increase(&app, &assigned, 3_000).await;
    let path = format!("/api/tasks/{}/cancellation", assigned.task);
    let requested = app.post(&path, Some(&assigned.tasker), json!({ "reason": "I broke my wrist" })).await;
    assert_eq!(requested.status, StatusCode::CREATED, "{:?}", requested.body);
    let accepted = app.post(&format!("{path}/accept"), Some(&assigned.poster), json!({})).await;
    assert_eq!(accepted.status, StatusCode::OK, "{:?}", accepted.body);
    let mut made = Vec::new();
    for payment in payments_of(&app, &assigned.task).await {
        for call in calls_of(&app, payment.id).await {
            made.push((payment.purpose.to_string(), call.kind.to_string(), call.amount_cents, call.status.to_string()));
        }
        assert_eq!(payment.refund_ref, Some(format!("re_sandbox_{}", payment.id.simple())), "{}", payment.purpose);
    }
    made.sort();
    let refund = |purpose: &str, cents: i64| (purpose.to_owned(), "refund".to_owned(), cents, "done".to_owned());
    assert_eq!(made, [refund("increase", 3_000), refund("task", 10_000)]);
    assert_ledger_audits(&app).await;
    app
}

/// Two approvals of one increase at once: one checkout, the other 409.
async fn two_approvals_open_one_checkout(app: TestApp) -> TestApp {
    for round in 0..6 {
        let assigned = assigned_task(&app, 10_000).await;
        let increase = asked(&app, &assigned, 1_000 + round).await;
        let path = increase_path(&increase, "approve");
        let (a, b) = tokio::join!(
            app.post(&path, Some(&assigned.poster), json!({})),
            app.post(&path, Some(&assigned.poster), json!({}))
        );
        let mut statuses = [a.status, b.status];
        statuses.sort();
        assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT], "round {round}: {:?} {:?}", a.body, b.body);
        let opened: Vec<_> = escrow_of(&app, &assigned.task).await.into_iter().filter(|p| p.0 == "increase").collect();
        assert_eq!(opened, [row("increase", "pending", 1_000 + round, 0)], "round {round}");
    }
    assert_ledger_audits(&app).await;
    app
}

/// An approval racing a release, a dispute or a cancellation's acceptance:
/// whichever wins, the escrow ends consistent and no charge is stranded. The
/// second request is held back by a head start that changes from round to
/// round, so each side gets to win; the outcomes are recorded and both must occur.
async fn an_approval_racing_the_end_of_the_escrow_never_strands_a_charge(app: TestApp) -> TestApp {
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    for round in 0..12 {
        let assigned = assigned_task(&app, 10_000).await;
        let increase = asked(&app, &assigned, 2_000).await;
        let approve_path = increase_path(&increase, "approve");
        let (kind, other) = match round % 3 {
            0 => ("release", (format!("/api/tasks/{}/release", assigned.task), json!({}))),
            1 => (
                "dispute",
                (format!("/api/tasks/{}/dispute", assigned.task), json!({ "reason": "other", "message": "Wait" })),
            ),
            _ => {
                let path = format!("/api/tasks/{}/cancellation", assigned.task);
                let requested = app.post(&path, Some(&assigned.tasker), json!({ "reason": "Ill" })).await;
                assert_eq!(requested.status, StatusCode::CREATED);
                ("cancellation", (format!("{path}/accept"), json!({})))
            }
        };
        let head_start = Duration::from_millis(3 * (round / 2 % 4) as u64);
        let approve = app.post(&approve_path, Some(&assigned.poster), json!({}));
        let end = app.post(&other.0, Some(&assigned.poster), other.1.clone());
        let (approved, ended) = if round % 2 == 0 {
            tokio::join!(approve, async {
                tokio::time::sleep(head_start).await;
                end.await
            })
        } else {
            tokio::join!(
                async {
                    tokio::time::sleep(head_start).await;
                    approve.await
                },
                end
            )
        };
        assert!(ended.status.is_success(), "round {round}: the escrow's end always goes through: {:?}", ended.body);
        assert_eq!(
            increase_status(&app, &increase).await,
            "closed",
            "round {round}: the end of the escrow closes the increase"
        );
        let winner = if approved.status == StatusCode::OK {
            // Its checkout was expired by the end of the escrow: it can no longer be paid.
            let url = approved.body["url"].as_str().unwrap();
            let late = app
                .client
                .post(url)
                .form(&[("action", "pay"), ("card_number", "4242 4242 4242 4242")])
                .send()
                .await
                .unwrap();
            assert_ne!(
                late.status(),
                StatusCode::SEE_OTHER,
                "round {round}: a closed increase's checkout is not payable"
            );
            "the approval went first"
        } else {
            assert_eq!(approved.status, StatusCode::CONFLICT, "round {round}: {:?}", approved.body);
            "the end of the escrow went first"
        };
        *outcomes.entry(format!("{winner} ({kind})")).or_default() += 1;
        let held: Vec<_> =
            escrow_of(&app, &assigned.task).await.into_iter().filter(|p| p.0 == "increase" && p.1 == "held").collect();
        assert!(held.is_empty(), "round {round}: {held:?}");
    }
    for side in ["the approval went first", "the end of the escrow went first"] {
        assert!(outcomes.keys().any(|outcome| outcome.starts_with(side)), "{side} never happened: {outcomes:?}");
    }
    assert_ledger_audits(&app).await;
    app
}

on_both_backends!(config = configure;
    a_paid_increase_joins_the_escrow_and_is_released_with_it,
    refusals_leave_the_task_unchanged,
    an_unanswered_increase_lapses_and_an_unpaid_approval_can_be_approved_again,
    a_cancellation_refunds_the_increases_with_the_payment,
    a_checkout_left_open_at_the_release_can_no_longer_be_paid,
    a_late_settling_increase_joins_the_escrow_when_the_bank_confirms,
    a_dispute_splits_the_whole_escrow,
    two_approvals_open_one_checkout,
    an_approval_racing_the_end_of_the_escrow_never_strands_a_charge,
    a_reason_may_be_1000_characters_and_no_more,
    both_parties_see_an_increase_asked_approved_and_closed_live,
    accepting_a_cancellation_refunds_a_paid_increase_at_once,
);
