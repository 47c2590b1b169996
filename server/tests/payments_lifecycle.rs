//! The escrow lifecycle end to end through the sandbox provider, on both
//! backends: accept & pay, verify, webhook, request payment, release,
//! auto-release, abandoned checkouts, cancellation with refund, and the
//! ledger check after every step.

use domain::payments::{sweep, webhook};
use model::states::{LedgerKind, PaymentStatus};
use store::{db::Timestamp, ledger, payments};

use crate::common;

use std::time::Duration;

use common::{
    TestApp,
    escrow::{
        Assigned, assigned_task, checkout, deliver_webhook, notification_messages, notification_titles, pay,
        task_status, verify,
    },
    market::{id, make_offer, post_task, poster, tasker},
    rows::{assert_task_unchanged, task_snapshot},
};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

const WEBHOOK_SECRET: &str = "whsec_lifecycle_test";

async fn assert_ledger_balances(app: &TestApp) {
    let check = ledger::escrow_check(&app.server.state.db).await.unwrap();
    assert!(check.balances(), "{check:?}");
}

async fn offer_statuses(app: &TestApp, token: &str, task: &str) -> Vec<(String, String)> {
    let offers = app.get(&format!("/api/tasks/{task}/offers"), Some(token)).await.body;
    offers["items"].as_array().unwrap().iter().map(|o| (id(o), o["status"].as_str().unwrap().to_owned())).collect()
}

async fn happy_path_from_accept_and_pay_to_release(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let chosen = tasker(&app, "chosen@example.com").await;
    let other = tasker(&app, "other@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &chosen, &task, 10_005).await);
    let other_offer = id(&make_offer(&app, &other, &task, 9_000).await);

    let (session, url) = checkout(&app, &poster, &task, &offer).await;
    assert_eq!(task_status(&app, &task).await, "pending_payment");
    let page = app.client.get(&url).send().await.unwrap().text().await.unwrap();
    assert!(page.contains("$100.05 AUD") && page.contains("$10.01 AUD"), "amount and fee on the checkout page");
    let success = pay(&app, &url).await;
    assert_eq!(success, app.url(&format!("/payment-success?session_id={session}&task_id={task}&offer_id={offer}")));

    let verified = verify(&app, &poster, &session, &task, &offer).await;
    assert_eq!(verified.status, StatusCode::OK);
    assert_eq!(verified.body["success"], true);
    assert_eq!(verified.body["message"], "Your task has been assigned and the tasker has been notified");
    assert_eq!(verified.body["payment_info"], json!({ "amount_cents": 10_005, "currency": "aud" }));
    assert_eq!(verified.body["payment_status"], "held");
    assert_eq!(verified.body["task_status"], "assigned");
    let statuses = offer_statuses(&app, &poster, &task).await;
    assert!(
        statuses.contains(&(offer.clone(), "accepted".into()))
            && statuses.contains(&(other_offer, "not_selected".into())),
        "{statuses:?}"
    );
    assert!(notification_titles(&app, &chosen).await.contains(&"Offer accepted".to_owned()));
    assert!(notification_titles(&app, &other).await.contains(&"Offer not selected".to_owned()));
    assert_ledger_balances(&app).await;

    let payment = app.get(&format!("/api/tasks/{task}/payment"), Some(&chosen)).await;
    assert_eq!(payment.body["status"], "held");
    assert_eq!((payment.body["fee_cents"].as_i64(), payment.body["payout_cents"].as_i64()), (Some(1_001), Some(9_004)));

    let requested = app.post(&format!("/api/tasks/{task}/request-payment"), Some(&chosen), json!({})).await;
    assert_eq!(requested.body["status"], "completion_requested", "{:?}", requested.body);
    assert!(notification_titles(&app, &poster).await.contains(&"Payment requested".to_owned()));
    let released = app.post(&format!("/api/tasks/{task}/release"), Some(&poster), json!({})).await;
    assert_eq!(released.body["status"], "completed", "{:?}", released.body);
    assert!(notification_titles(&app, &chosen).await.contains(&"Payment released".to_owned()));

    let task_id: Uuid = task.parse().unwrap();
    let kept = payments::kept_payment_for_task(&app.server.state.db, task_id).await.unwrap().unwrap();
    assert_eq!(kept.status, PaymentStatus::Released);
    assert!(
        kept.transfer_ref.as_deref().is_some_and(|r| r.starts_with("tr_sandbox_")),
        "sandbox payouts are paid at once"
    );
    let entries = ledger::entries_for_task(&app.server.state.db, task_id).await.unwrap();
    let movements: Vec<(&str, i64, i64)> =
        entries.iter().map(|e| (e.kind.as_str(), e.amount_cents, e.escrow_delta_cents)).collect();
    assert_eq!(movements, vec![("charge", 10_005, 10_005), ("payout", 9_004, -9_004), ("fee", 1_001, -1_001)]);
    assert_ledger_balances(&app).await;
    app
}

/// The tasker whose offer was paid for and the poster who paid are told which task, and how much.
async fn the_parties_are_told_which_task_was_paid_for(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let tasker = tasker(&app, "tasker@example.com").await;
    let task = id(&post_task(&app, &poster, json!({ "title": "Hang three mirrors" })).await);
    let offer = id(&make_offer(&app, &tasker, &task, 8_000).await);
    let (session, url) = checkout(&app, &poster, &task, &offer).await;
    pay(&app, &url).await;
    assert_eq!(verify(&app, &poster, &session, &task, &offer).await.body["success"], true);
    assert_eq!(
        notification_messages(&app, &tasker, "Offer accepted").await,
        ["Your offer on \"Hang three mirrors\" was accepted. $80.00 AUD is held until the task is complete."]
    );
    assert_eq!(
        notification_messages(&app, &poster, "Payment held").await,
        ["$80.00 AUD for \"Hang three mirrors\" is held securely until you release it."]
    );
    app
}

fn signed_event(event_id: &str, kind: &str, session_id: &str, at: i64) -> (String, String) {
    let body = json!({ "id": event_id, "type": kind, "data": { "object": { "id": session_id, "object": "checkout.session" } } }).to_string();
    let signature = webhook::sign(body.as_bytes(), WEBHOOK_SECRET, at);
    (body, signature)
}

fn now_secs() -> i64 {
    Timestamp::now().0 / 1000
}

async fn verify_twice_and_a_replayed_webhook_make_one_payment_and_one_assignment(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let tasker = tasker(&app, "tasker@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &tasker, &task, 7_777).await);
    let (session, url) = checkout(&app, &poster, &task, &offer).await;
    pay(&app, &url).await;

    let (body, signature) = signed_event("evt_paid_1", "checkout.session.completed", &session, now_secs());
    let (first, second, third, fourth) = tokio::join!(
        verify(&app, &poster, &session, &task, &offer),
        verify(&app, &poster, &session, &task, &offer),
        deliver_webhook(&app, &body, &signature),
        deliver_webhook(&app, &body, &signature),
    );
    for response in [&first, &second] {
        assert_eq!(response.body["success"], true, "{:?}", response.body);
    }
    assert_eq!(third.status, StatusCode::OK, "{:?}", third.body);
    assert_eq!(fourth.status, StatusCode::OK, "{:?}", fourth.body);
    let replay = deliver_webhook(&app, &body, &signature).await;
    assert_eq!(replay.body, json!({ "received": true, "handled": false }), "a replayed event id is not handled again");

    let task_id: Uuid = task.parse().unwrap();
    let all = payments::payments_for_task(&app.server.state.db, task_id).await.unwrap();
    assert_eq!(all.iter().map(|p| p.status.as_str()).collect::<Vec<_>>(), vec!["held"]);
    let charges = ledger::entries_for_task(&app.server.state.db, task_id).await.unwrap();
    assert_eq!(charges.len(), 1, "one charge in the ledger");
    let accepted = notification_titles(&app, &tasker).await.into_iter().filter(|t| t == "Offer accepted").count();
    assert_eq!(accepted, 1, "the tasker is told once");
    assert_eq!(task_status(&app, &task).await, "assigned");
    assert_ledger_balances(&app).await;
    app
}

async fn webhooks_with_bad_signatures_stale_timestamps_or_unknown_events_change_nothing(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let tasker = tasker(&app, "tasker@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &tasker, &task, 5_000).await);
    let (session, url) = checkout(&app, &poster, &task, &offer).await;
    pay(&app, &url).await;

    let (body, _) = signed_event("evt_forged", "checkout.session.completed", &session, now_secs());
    let forged = webhook::sign(body.as_bytes(), "whsec_not_ours", now_secs());
    assert_eq!(deliver_webhook(&app, &body, &forged).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(deliver_webhook(&app, &body, "").await.status, StatusCode::BAD_REQUEST);
    let (stale_body, stale) = signed_event("evt_stale", "checkout.session.completed", &session, now_secs() - 301);
    assert_eq!(deliver_webhook(&app, &stale_body, &stale).await.status, StatusCode::BAD_REQUEST);
    let (tampered_body, signature) = signed_event("evt_tampered", "checkout.session.completed", "cs_other", now_secs());
    let tampered_body = tampered_body.replace("cs_other", &session);
    assert_eq!(deliver_webhook(&app, &tampered_body, &signature).await.status, StatusCode::BAD_REQUEST);
    let (unknown_kind, signature) = signed_event("evt_unknown_type", "customer.created", &session, now_secs());
    assert_eq!(
        deliver_webhook(&app, &unknown_kind, &signature).await.body,
        json!({ "received": true, "handled": false })
    );
    let (unknown_session, signature) =
        signed_event("evt_unknown_session", "checkout.session.completed", "cs_nobody", now_secs());
    assert_eq!(
        deliver_webhook(&app, &unknown_session, &signature).await.body,
        json!({ "received": true, "handled": false })
    );

    let task_id: Uuid = task.parse().unwrap();
    let all = payments::payments_for_task(&app.server.state.db, task_id).await.unwrap();
    assert_eq!(all.iter().map(|p| p.status.as_str()).collect::<Vec<_>>(), vec!["pending"], "nothing confirmed");
    assert_eq!(task_status(&app, &task).await, "pending_payment");
    for event in ["evt_forged", "evt_stale", "evt_tampered", "evt_unknown_type", "evt_unknown_session"] {
        assert!(!payments::stripe_event_seen(&app.server.state.db, event).await.unwrap(), "{event} not recorded");
    }
    assert!(ledger::entries_for_task(&app.server.state.db, task_id).await.unwrap().is_empty());

    // The genuine event then confirms it.
    let (body, signature) = signed_event("evt_genuine", "checkout.session.completed", &session, now_secs());
    assert_eq!(deliver_webhook(&app, &body, &signature).await.body, json!({ "received": true, "handled": true }));
    assert_eq!(task_status(&app, &task).await, "assigned");
    assert_ledger_balances(&app).await;
    app
}

async fn fifty_concurrent_checkouts_for_one_task_assign_exactly_one_offer(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let mut offers = Vec::new();
    for batch in 0..5 {
        let taskers = futures_util::future::join_all((0..10).map(|i| {
            let app = &app;
            async move { tasker(app, &format!("tasker-{batch}-{i}@example.com")).await }
        }))
        .await;
        for (i, token) in taskers.iter().enumerate() {
            offers.push(id(&make_offer(&app, token, &task, 5_000 + (batch * 10 + i) as i64).await));
        }
    }
    assert_eq!(offers.len(), 50);

    let attempts = futures_util::future::join_all(offers.iter().map(|offer| {
        let (app, poster, task) = (&app, &poster, &task);
        async move {
            let response = app
                .post("/api/payments/checkout-session", Some(poster), json!({ "task_id": task, "offer_id": offer }))
                .await;
            if response.status != StatusCode::OK {
                // Lost the race (409), or beyond the task's checkout throttle (429).
                assert!(
                    matches!(response.status, StatusCode::CONFLICT | StatusCode::TOO_MANY_REQUESTS),
                    "{:?}",
                    response.body
                );
                return None;
            }
            let session = response.body["session_id"].as_str().unwrap().to_owned();
            let url = response.body["url"].as_str().unwrap();
            let paid = app
                .client
                .post(url)
                .form(&[("action", "pay"), ("card_number", "4242424242424242")])
                .send()
                .await
                .unwrap();
            // Once another offer won, the remaining checkouts are expired at the provider: never charged.
            assert!(matches!(paid.status(), StatusCode::SEE_OTHER | StatusCode::GONE), "{}", paid.status());
            Some(verify(app, poster, &session, task, offer).await.body)
        }
    }))
    .await;
    let verified: Vec<&Value> = attempts.iter().flatten().collect();
    let winners = verified.iter().filter(|body| body["success"] == true).count();
    assert_eq!(winners, 1, "exactly one assignment: {verified:?}");

    let task_id: Uuid = task.parse().unwrap();
    let db = &app.server.state.db;
    let all = payments::payments_for_task(db, task_id).await.unwrap();
    assert_eq!(all.iter().filter(|p| p.status == PaymentStatus::Held).count(), 1);
    assert!(all.iter().all(|p| matches!(p.status.as_str(), "held" | "refunded" | "pending" | "expired")));
    for refunded in all.iter().filter(|p| p.status == PaymentStatus::Refunded) {
        assert!(refunded.refund_ref.is_some(), "every losing charge is refunded at the provider");
    }
    // Checkouts opened but overtaken before they were paid are closed by the sweep, never charged.
    sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(31 * 60))).await.unwrap();
    let all = payments::payments_for_task(db, task_id).await.unwrap();
    assert_eq!(all.iter().filter(|p| p.status == PaymentStatus::Pending).count(), 0, "no orphaned checkout");
    let count = |status: PaymentStatus| all.iter().filter(|p| p.status == status).count();
    eprintln!(
        "50 concurrent attempts: {} refused at checkout, {} held, {} charged and refunded, {} closed unpaid",
        50 - all.len(),
        count(PaymentStatus::Held),
        count(PaymentStatus::Refunded),
        count(PaymentStatus::Expired)
    );
    let statuses = offer_statuses(&app, &poster, &task).await;
    assert_eq!(statuses.iter().filter(|(_, s)| s == "accepted").count(), 1);
    assert_eq!(statuses.iter().filter(|(_, s)| s == "not_selected").count(), 49);
    assert_eq!(task_status(&app, &task).await, "assigned");
    // Each losing charge has its own charge and refund rows, not only a balanced total.
    common::escrow::assert_ledger_audits(&app).await;
    app
}

async fn an_abandoned_checkout_returns_the_task_to_open_after_thirty_minutes(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let tasker = tasker(&app, "tasker@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &tasker, &task, 6_000).await);
    let (session, url) = checkout(&app, &poster, &task, &offer).await;
    let state = &app.server.state;

    let early = sweep::sweep(state, Timestamp::now().plus(Duration::from_secs(29 * 60))).await.unwrap();
    assert_eq!(early.checkouts_checked, 0);
    assert_eq!(task_status(&app, &task).await, "pending_payment");
    let late = sweep::sweep(state, Timestamp::now().plus(Duration::from_secs(31 * 60))).await.unwrap();
    assert_eq!(late.checkouts_checked, 1);
    assert_eq!(task_status(&app, &task).await, "open");
    let again = sweep::sweep(state, Timestamp::now().plus(Duration::from_secs(31 * 60))).await.unwrap();
    assert_eq!(again.checkouts_checked, 0, "idempotent");

    let late_pay =
        app.client.post(&url).form(&[("action", "pay"), ("card_number", "4242424242424242")]).send().await.unwrap();
    assert_eq!(late_pay.status(), StatusCode::GONE, "an expired checkout cannot be paid");
    let verified = verify(&app, &poster, &session, &task, &offer).await;
    assert_eq!(verified.body["success"], false);
    assert_eq!(verified.body["payment_status"], "expired");
    // The offer is still pending: the poster can accept it again.
    let (_, url) = checkout(&app, &poster, &task, &offer).await;
    pay(&app, &url).await;
    assert_ledger_balances(&app).await;
    app
}

async fn silence_after_a_payment_request_releases_after_seven_days(app: TestApp) -> TestApp {
    let Assigned { tasker, task, .. } = assigned_task(&app, 12_345).await;
    let state = &app.server.state;
    let nothing = sweep::sweep(state, Timestamp::now().plus(Duration::from_secs(8 * 24 * 3600))).await.unwrap();
    assert_eq!(nothing.auto_released, 0, "no request, no auto-release");
    app.post(&format!("/api/tasks/{task}/request-payment"), Some(&tasker), json!({})).await;
    let early = sweep::sweep(state, Timestamp::now().plus(Duration::from_secs(6 * 24 * 3600))).await.unwrap();
    assert_eq!(early.auto_released, 0);
    let due = sweep::sweep(state, Timestamp::now().plus(Duration::from_secs(7 * 24 * 3600 + 60))).await.unwrap();
    assert_eq!(due.auto_released, 1);
    assert_eq!(task_status(&app, &task).await, "completed");
    let payment = app.get(&format!("/api/tasks/{task}/payment"), Some(&tasker)).await;
    assert_eq!(payment.body["status"], "released");
    assert_eq!(
        (payment.body["fee_cents"].as_i64(), payment.body["payout_cents"].as_i64()),
        (Some(1_235), Some(11_110))
    );
    let again = sweep::sweep(state, Timestamp::now().plus(Duration::from_secs(7 * 24 * 3600 + 60))).await.unwrap();
    assert_eq!(again.auto_released, 0, "idempotent");
    assert_ledger_balances(&app).await;
    app
}

async fn cancellation_after_payment_refunds_when_accepted_or_unanswered(app: TestApp) -> TestApp {
    // Declined: the task carries on.
    let Assigned { poster, tasker, task, .. } = assigned_task(&app, 8_001).await;
    let asked =
        app.post(&format!("/api/tasks/{task}/cancellation"), Some(&tasker), json!({ "reason": "I am ill" })).await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    let twice =
        app.post(&format!("/api/tasks/{task}/cancellation"), Some(&poster), json!({ "reason": "Me too" })).await;
    assert_eq!(twice.status, StatusCode::CONFLICT);
    let own = app.post(&format!("/api/tasks/{task}/cancellation/accept"), Some(&tasker), json!({})).await;
    assert_eq!(own.status, StatusCode::FORBIDDEN, "the requester cannot answer their own request");
    let declined = app.post(&format!("/api/tasks/{task}/cancellation/decline"), Some(&poster), json!({})).await;
    assert_eq!(declined.body["status"], "assigned", "{:?}", declined.body);

    // Accepted: cancelled and refunded.
    app.post(&format!("/api/tasks/{task}/cancellation"), Some(&poster), json!({ "reason": "Plans changed" })).await;
    let accepted = app.post(&format!("/api/tasks/{task}/cancellation/accept"), Some(&tasker), json!({})).await;
    assert_eq!(accepted.body["status"], "cancelled", "{:?}", accepted.body);
    let payment = app.get(&format!("/api/tasks/{task}/payment"), Some(&poster)).await;
    assert_eq!(payment.body["status"], "refunded");
    let task_id: Uuid = task.parse().unwrap();
    let kinds: Vec<LedgerKind> =
        ledger::entries_for_task(&app.server.state.db, task_id).await.unwrap().into_iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [LedgerKind::Charge, LedgerKind::Refund]);
    assert!(notification_titles(&app, &poster).await.contains(&"Task cancelled".to_owned()));

    // Unanswered for 48 hours: cancelled and refunded by the sweep.
    let Assigned { tasker, task, .. } = assigned_task(&app, 9_999).await;
    app.post(&format!("/api/tasks/{task}/cancellation"), Some(&tasker), json!({ "reason": "Moving away" })).await;
    let state = &app.server.state;
    assert_eq!(
        sweep::sweep(state, Timestamp::now().plus(Duration::from_secs(47 * 3600))).await.unwrap().cancellations_lapsed,
        0
    );
    assert_eq!(
        sweep::sweep(state, Timestamp::now().plus(Duration::from_secs(48 * 3600 + 60)))
            .await
            .unwrap()
            .cancellations_lapsed,
        1
    );
    assert_eq!(task_status(&app, &task).await, "cancelled");
    let payment = payments::payments_for_task(&state.db, task.parse().unwrap()).await.unwrap().pop().unwrap();
    assert_eq!(payment.status, PaymentStatus::Refunded);
    assert!(payment.refund_ref.is_some());
    assert_ledger_balances(&app).await;
    app
}

/// Makes the call and returns its status; when it is refused (4xx), asserts that the rows of the
/// `watched` tasks (task, offers, payments, ledger entries, …) and all notifications and webhook
/// events are exactly as they were before it.
async fn refusal_changes_nothing(
    app: &TestApp,
    watched: &[&str],
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> u16 {
    let mut before = Vec::new();
    for task in watched {
        before.push(task_snapshot(app, task).await);
    }
    let status = app.request(method.clone(), path, token, body).await.status.as_u16();
    if (400..500).contains(&status) {
        for (task, before) in watched.iter().zip(&before) {
            assert_task_unchanged(app, task, before, &format!("refused {method} {path} ({status})")).await;
        }
    }
    status
}

async fn every_forbidden_actor_and_state_is_refused(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let stranger = tasker(&app, "stranger@example.com").await;
    let tasker = tasker(&app, "tasker@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &tasker, &task, 5_500).await);
    let other_task = id(&post_task(&app, &poster, json!({ "title": "Another" })).await);
    let watched = [task.as_str(), other_task.as_str()];
    let post = |path: String, token: &str, body: Value| {
        let app = &app;
        let token = token.to_owned();
        async move { refusal_changes_nothing(app, &watched, Method::POST, &path, Some(&token), Some(body)).await }
    };
    let checkout_body = json!({ "task_id": task, "offer_id": offer });
    assert_eq!(
        refusal_changes_nothing(
            &app,
            &watched,
            Method::POST,
            "/api/payments/checkout-session",
            None,
            Some(checkout_body.clone())
        )
        .await,
        401
    );
    assert_eq!(post("/api/payments/checkout-session".into(), &tasker, checkout_body.clone()).await, 403);
    assert_eq!(post("/api/payments/checkout-session".into(), &stranger, checkout_body.clone()).await, 403);
    assert_eq!(
        post("/api/payments/checkout-session".into(), &poster, json!({ "task_id": other_task, "offer_id": offer }))
            .await,
        404
    );
    assert_eq!(
        post(format!("/api/tasks/{task}/release"), &poster, json!({})).await,
        409,
        "nothing to release on an open task"
    );
    assert_eq!(post(format!("/api/tasks/{task}/request-payment"), &tasker, json!({})).await, 403, "not assigned yet");
    assert_eq!(
        post(format!("/api/tasks/{task}/cancellation"), &poster, json!({ "reason": "x" })).await,
        409,
        "open tasks are cancelled directly"
    );

    let (session, url) = checkout(&app, &poster, &task, &offer).await;
    pay(&app, &url).await;
    let verify_body = json!({ "session_id": session, "task_id": task, "offer_id": offer });
    assert_eq!(post("/api/payments/verify".into(), &tasker, verify_body.clone()).await, 403);
    assert_eq!(
        post(
            "/api/payments/verify".into(),
            &poster,
            json!({ "session_id": session, "task_id": other_task, "offer_id": offer })
        )
        .await,
        400
    );
    assert_eq!(
        post(
            "/api/payments/verify".into(),
            &poster,
            json!({ "session_id": "cs_nope", "task_id": task, "offer_id": offer })
        )
        .await,
        404
    );
    let before_verify = task_snapshot(&app, &task).await;
    assert_eq!(post("/api/payments/verify".into(), &poster, verify_body).await, 200);
    // The snapshot sees what an accepted call changes, so "unchanged" above means something.
    let after_verify = task_snapshot(&app, &task).await;
    for table in ["tasks", "offers", "payments", "ledger_entries", "notifications"] {
        assert_ne!(before_verify[table], after_verify[table], "verify changed {table}");
    }

    assert_eq!(post("/api/payments/checkout-session".into(), &poster, checkout_body).await, 409, "already assigned");
    assert_eq!(post(format!("/api/tasks/{task}/request-payment"), &poster, json!({})).await, 403);
    assert_eq!(post(format!("/api/tasks/{task}/request-payment"), &stranger, json!({})).await, 403);
    assert_eq!(post(format!("/api/tasks/{task}/release"), &tasker, json!({})).await, 403);
    assert_eq!(post(format!("/api/tasks/{task}/release"), &stranger, json!({})).await, 403);
    assert_eq!(
        refusal_changes_nothing(
            &app,
            &watched,
            Method::GET,
            &format!("/api/tasks/{task}/payment"),
            Some(&stranger),
            None
        )
        .await,
        403
    );
    assert_eq!(post(format!("/api/tasks/{task}/cancellation"), &stranger, json!({ "reason": "x" })).await, 403);
    assert_eq!(post(format!("/api/tasks/{task}/cancellation"), &tasker, json!({ "reason": " " })).await, 422);
    assert_eq!(
        post(format!("/api/tasks/{task}/cancellation/accept"), &poster, json!({})).await,
        409,
        "no request to answer"
    );
    assert_eq!(post(format!("/api/tasks/{task}/request-payment"), &tasker, json!({})).await, 200);
    assert_eq!(post(format!("/api/tasks/{task}/request-payment"), &tasker, json!({})).await, 409, "asked already");
    assert_eq!(post(format!("/api/tasks/{task}/release"), &poster, json!({})).await, 200);
    assert_eq!(post(format!("/api/tasks/{task}/release"), &poster, json!({})).await, 409, "released already");
    assert_eq!(
        post(format!("/api/tasks/{task}/cancellation"), &tasker, json!({ "reason": "late" })).await,
        409,
        "completed tasks are not cancelled"
    );
    assert_eq!(post(format!("/api/tasks/{task}/cancel"), &poster, json!({})).await, 409);
    assert_ledger_balances(&app).await;
    app
}

async fn messages_flow_between_the_poster_and_the_assigned_tasker_only(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let hopeful = tasker(&app, "hopeful@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    make_offer(&app, &hopeful, &task, 5_000).await;
    let path = format!("/api/tasks/{task}/messages");
    assert_eq!(app.get(&path, Some(&poster)).await.status, StatusCode::CONFLICT, "no conversation before assignment");
    assert_eq!(app.post(&path, Some(&hopeful), json!({ "body": "Hi" })).await.status, StatusCode::FORBIDDEN);

    let Assigned { poster, tasker, task, .. } = assigned_task(&app, 5_000).await;
    let stranger = common::market::tasker(&app, "stranger@example.com").await;
    let path = format!("/api/tasks/{task}/messages");
    let sent = app.post(&path, Some(&poster), json!({ "body": "Gate code is 1234" })).await;
    assert_eq!(sent.status, StatusCode::CREATED, "{:?}", sent.body);
    let reply = app.post(&path, Some(&tasker), json!({ "body": "Thanks, see you at 9" })).await;
    assert_eq!(reply.status, StatusCode::CREATED);
    assert_eq!(sent.body["recipient_id"], reply.body["sender_id"]);
    let conversation = app.get(&path, Some(&tasker)).await.body;
    let bodies: Vec<&str> =
        conversation["items"].as_array().unwrap().iter().map(|m| m["body"].as_str().unwrap()).collect();
    assert_eq!(bodies, vec!["Gate code is 1234", "Thanks, see you at 9"]);
    assert_eq!(app.get(&path, Some(&stranger)).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.post(&path, Some(&stranger), json!({ "body": "Hello?" })).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get(&path, None).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.post(&path, Some(&poster), json!({ "body": "   " })).await.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(notification_titles(&app, &tasker).await.contains(&"New message".to_owned()));
    assert!(notification_titles(&app, &poster).await.contains(&"New message".to_owned()));
    app
}

async fn reviews_go_both_ways_after_completion_and_stay_hidden_until_both_are_in(app: TestApp) -> TestApp {
    let Assigned { poster, tasker, task, .. } = assigned_task(&app, 20_000).await;
    let stranger = common::market::tasker(&app, "stranger@example.com").await;
    let path = format!("/api/tasks/{task}/reviews");
    let review = |rating: i64, body: &str| json!({ "rating": rating, "body": body });
    assert_eq!(
        app.post(&path, Some(&poster), review(5, "Great")).await.status,
        StatusCode::CONFLICT,
        "not completed yet"
    );
    app.post(&format!("/api/tasks/{task}/release"), Some(&poster), json!({})).await;

    assert_eq!(app.post(&path, Some(&stranger), review(1, "Never met")).await.status, StatusCode::FORBIDDEN);
    let invalid = app.post(&path, Some(&poster), review(6, "")).await;
    assert_eq!(invalid.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!invalid.field_error("rating").is_empty() && !invalid.field_error("body").is_empty());
    assert_eq!(app.post(&path, Some(&poster), review(5, "Quick and tidy")).await.status, StatusCode::CREATED);
    assert_eq!(app.post(&path, Some(&poster), review(4, "Again")).await.status, StatusCode::CONFLICT, "once each");

    let tasker_id = app.get("/api/me", Some(&tasker)).await.body["user"]["id"].as_str().unwrap().to_owned();
    let poster_id = app.get("/api/me", Some(&poster)).await.body["user"]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.get(&path, None).await.body, json!([]), "hidden until both are in");
    assert_eq!(app.get(&path, Some(&poster)).await.body.as_array().unwrap().len(), 1, "the author sees their own");
    let profile = app.get(&format!("/api/profiles/{tasker_id}"), None).await.body;
    assert_eq!((profile["rating"].clone(), profile["review_count"].clone()), (Value::Null, json!(0)));
    assert_eq!(profile["tasks_completed"], 1);
    assert_eq!(profile["reviews"], json!([]), "the profile shows no hidden review either");

    assert_eq!(app.post(&path, Some(&tasker), review(4, "Clear instructions")).await.status, StatusCode::CREATED);
    assert_eq!(app.get(&path, None).await.body.as_array().unwrap().len(), 2);
    let profile = app.get(&format!("/api/profiles/{tasker_id}"), None).await.body;
    assert_eq!((profile["rating"].as_f64(), profile["review_count"].as_i64()), (Some(5.0), Some(1)));
    let shown = &profile["reviews"][0];
    assert_eq!((shown["rating"].as_i64(), shown["body"].as_str()), (Some(5), Some("Quick and tidy")));
    assert_eq!(shown["author"]["id"], poster_id.as_str(), "the poster wrote the tasker's review");
    let poster_name = app.get(&format!("/api/profiles/{poster_id}"), None).await.body["display_name"].clone();
    assert_eq!(shown["author"]["name"], poster_name);
    assert_ne!(shown["author"]["name"], profile["display_name"], "not the tasker's own name");
    assert!(shown["task_title"].as_str().is_some_and(|title| !title.is_empty()));
    let profile = app.get(&format!("/api/profiles/{poster_id}"), None).await.body;
    assert_eq!((profile["rating"].as_f64(), profile["review_count"].as_i64()), (Some(4.0), Some(1)));

    // A review nobody answers shows after 14 days.
    let Assigned { poster, tasker, task, .. } = assigned_task(&app, 6_000).await;
    app.post(&format!("/api/tasks/{task}/release"), Some(&poster), json!({})).await;
    app.post(&format!("/api/tasks/{task}/reviews"), Some(&tasker), review(3, "Late to reply")).await;
    let db = &app.server.state.db;
    let task_id: Uuid = task.parse().unwrap();
    let soon = Timestamp::now().plus(Duration::from_secs(13 * 24 * 3600));
    let later = Timestamp::now().plus(Duration::from_secs(14 * 24 * 3600 + 60));
    assert!(store::reviews::visible_reviews_for_task(db, task_id, None, false, soon).await.unwrap().is_empty());
    assert_eq!(store::reviews::visible_reviews_for_task(db, task_id, None, false, later).await.unwrap().len(), 1);
    app
}

fn with_webhook_secret(config: &mut domain::config::Config) {
    config.stripe_webhook_secret = Some(domain::config::Secret::new(WEBHOOK_SECRET));
}

on_both_backends!(config = with_webhook_secret;
    happy_path_from_accept_and_pay_to_release,
    verify_twice_and_a_replayed_webhook_make_one_payment_and_one_assignment,
    webhooks_with_bad_signatures_stale_timestamps_or_unknown_events_change_nothing,
    fifty_concurrent_checkouts_for_one_task_assign_exactly_one_offer,
    an_abandoned_checkout_returns_the_task_to_open_after_thirty_minutes,
    silence_after_a_payment_request_releases_after_seven_days,
    cancellation_after_payment_refunds_when_accepted_or_unanswered,
    every_forbidden_actor_and_state_is_refused,
    messages_flow_between_the_poster_and_the_assigned_tasker_only,
    reviews_go_both_ways_after_completion_and_stay_hidden_until_both_are_in,
    the_parties_are_told_which_task_was_paid_for,
);
