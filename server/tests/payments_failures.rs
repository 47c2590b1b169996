//! The escrow's failure paths, driven through the sandbox's injected faults,
//! on both backends: provider calls failing after commit and retried with
//! backoff (never starving each other), parked after too many attempts,
//! webhooks while the provider is down, a checkout paid at the last second,
//! charges that lost the race, and the races between release, cancellation,
//! auto-release and the 48-hour lapse. Every payment's ledger rows are
//! audited one by one after each scenario.

use domain::payments::{
    PaymentProvider, calls,
    sandbox::{Call, Fault},
    sweep::{self, AUTO_RELEASE_AFTER, CANCELLATION_ANSWER_WINDOW},
};
use model::states::{PaymentStatus, ProviderCallStatus};
use store::{cancellations, db::Timestamp, provider_calls};

use crate::common;

use std::time::Duration;

use common::{
    TestApp,
    escrow::{
        Assigned, assert_ledger_audits, assign, assigned_task, calls_of, checkout, kept_payment, pay, payments_of,
        send_webhook, task_status, uuid, verify,
    },
    market::{id, make_offer, post_task, poster, tasker},
};
use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::json;

const WEBHOOK_SECRET: &str = "whsec_failures_test";

fn faults(app: &TestApp) -> &domain::payments::SandboxFaults {
    app.server.state.payments.sandbox().faults()
}

async fn sweep_at(app: &TestApp, at: Timestamp) -> sweep::SweepReport {
    sweep::sweep(&app.server.state, at).await.expect("sweep")
}

fn later(by: Duration) -> Timestamp {
    Timestamp::now().plus(by)
}

async fn release(app: &TestApp, assigned: &Assigned) {
    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&assigned.poster), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
}

async fn cancel_by_agreement(app: &TestApp, assigned: &Assigned) {
    let path = format!("/api/tasks/{}/cancellation", assigned.task);
    let asked = app.post(&path, Some(&assigned.tasker), json!({ "reason": "I am unwell" })).await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    let accepted = app.post(&format!("{path}/accept"), Some(&assigned.poster), json!({})).await;
    assert_eq!(accepted.status, StatusCode::OK, "{:?}", accepted.body);
}

async fn transfer_failing_after_commit_is_retried_by_the_sweep(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    faults(&app).inject(Call::Transfer, Fault::Unavailable(1));
    release(&app, &assigned).await;
    let payment = kept_payment(&app, &assigned.task).await;
    assert_eq!(payment.status, PaymentStatus::Released);
    assert_eq!(payment.transfer_ref, None, "the first attempt failed");
    let [call] = calls_of(&app, payment.id).await.try_into().unwrap();
    assert_eq!((call.kind.as_str(), call.status.as_str(), call.attempts), ("transfer", "pending", 1));
    assert_eq!(call.amount_cents, 9_000);

    let early = sweep_at(&app, Timestamp::now()).await;
    assert_eq!(early.provider_calls_retried, 0, "not due before its backoff");
    let report = sweep_at(&app, later(Duration::from_secs(61))).await;
    assert_eq!((report.provider_calls_retried, report.provider_calls_succeeded), (1, 1));
    let [call] = calls_of(&app, payment.id).await.try_into().unwrap();
    assert_eq!((call.status.as_str(), call.attempts), ("done", 2));
    assert_eq!(kept_payment(&app, &assigned.task).await.transfer_ref, call.provider_ref);
    assert_ledger_audits(&app).await;
    app
}

async fn refund_completes_within_two_sweeps_behind_150_permanently_failing_transfers(app: TestApp) -> TestApp {
    faults(&app).inject(Call::Transfer, Fault::Refused);
    let poster = poster(&app, "busy-poster@example.com").await;
    let mut taskers = Vec::new();
    for n in 0..15 {
        taskers.push(tasker(&app, &format!("no-payouts-{n}@example.com")).await);
    }
    for chunk in 0..15 {
        let released = join_all((0..10).map(|n| {
            let (app, poster, tasker) = (&app, &poster, &taskers[(chunk + n) % taskers.len()]);
            async move {
                let assigned = assign(app, poster, tasker, 5_000 + chunk as i64 * 10 + n as i64).await;
                release(app, &assigned).await;
            }
        }))
        .await;
        assert_eq!(released.len(), 10);
    }
    faults(&app).inject(Call::Refund, Fault::Unavailable(1));
    let cancelled = assigned_task(&app, 7_700).await;
    cancel_by_agreement(&app, &cancelled).await;
    let refunded = kept_payment(&app, &cancelled.task).await;
    assert_eq!(refunded.status, PaymentStatus::Refunded);
    assert_eq!(refunded.refund_ref, None, "the refund's first attempt failed");

    let first = sweep_at(&app, later(Duration::from_secs(61))).await;
    let second = sweep_at(&app, later(Duration::from_secs(122))).await;
    let refunded = kept_payment(&app, &cancelled.task).await;
    assert!(
        refunded.refund_ref.is_some(),
        "the refund waited behind failing transfers: first sweep {first:?}, second {second:?}"
    );
    let [call] = calls_of(&app, refunded.id).await.try_into().unwrap();
    assert_eq!(call.status, ProviderCallStatus::Done);
    let stuck = provider_calls::due(
        &app.server.state.db,
        later(Duration::from_secs(30 * 86_400)),
        1000,
        app.server.state.config.payouts_require_identity,
    )
    .await
    .unwrap();
    assert_eq!(stuck.len(), 150, "every transfer is still owed, pushed back by its backoff");
    assert!(stuck.iter().all(|call| call.kind.as_str() == "transfer" && call.attempts >= 2));
    assert_ledger_audits(&app).await;
    app
}

async fn a_call_failing_every_time_is_parked_for_an_operator_and_can_be_retried(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 6_000).await;
    faults(&app).inject(Call::Transfer, Fault::Refused);
    release(&app, &assigned).await;
    let payment = kept_payment(&app, &assigned.task).await;
    let mut at = Timestamp::now();
    for _ in 1..calls::MAX_ATTEMPTS {
        at = at.plus(Duration::from_secs(6 * 3600 + 1));
        sweep_at(&app, at).await;
    }
    let [call] = calls_of(&app, payment.id).await.try_into().unwrap();
    assert_eq!((call.status.as_str(), call.attempts), ("parked", calls::MAX_ATTEMPTS));
    assert!(call.last_error.as_deref().unwrap_or("").contains("refusal"), "{:?}", call.last_error);
    let after = sweep_at(&app, at.plus(Duration::from_secs(7 * 86_400))).await;
    assert_eq!(after.provider_calls_retried, 0, "a parked call is left alone");

    faults(&app).clear();
    let unparked = provider_calls::unpark(&app.server.state.db, call.id, Timestamp::now()).await.unwrap();
    let unparked = unparked.expect("the parked call, unparked");
    assert_eq!((unparked.id, unparked.status, unparked.attempts), (call.id, ProviderCallStatus::Pending, 0));
    let retried = sweep_at(&app, later(Duration::from_secs(1))).await;
    assert_eq!(retried.provider_calls_succeeded, 1);
    assert!(kept_payment(&app, &assigned.task).await.transfer_ref.is_some());
    assert_ledger_audits(&app).await;
    app
}

async fn every_charge_that_lost_the_race_is_refunded_with_its_own_ledger_rows(app: TestApp) -> TestApp {
    let poster = poster(&app, "racing-poster@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let mut offers = Vec::new();
    for n in 0..6 {
        let tasker = tasker(&app, &format!("racer-{n}@example.com")).await;
        offers.push(id(&make_offer(&app, &tasker, &task, 8_000 + n).await));
    }
    let mut checkouts = Vec::new();
    for offer in offers {
        let (session, url) = checkout(&app, &poster, &task, &offer).await;
        checkouts.push((session, url, offer));
    }
    for (_, url, _) in &checkouts {
        pay(&app, url).await;
    }
    let results =
        join_all(checkouts.iter().map(|(session, _, offer)| verify(&app, &poster, session, &task, offer))).await;
    let won = results.iter().filter(|r| r.body["payment_status"] == "held").count();
    assert_eq!(won, 1, "{:?}", results.iter().map(|r| &r.body).collect::<Vec<_>>());
    let payments = payments_of(&app, &task).await;
    assert_eq!(payments.len(), 6);
    for payment in &payments {
        if payment.status == PaymentStatus::Held {
            continue;
        }
        assert_eq!(payment.status, PaymentStatus::Refunded, "{payment:?}");
        assert_eq!(payment.refunded_cents, payment.amount_cents);
        let [call] = calls_of(&app, payment.id).await.try_into().unwrap();
        assert_eq!(
            (call.kind.as_str(), call.status.as_str(), call.amount_cents),
            ("refund", "done", payment.amount_cents)
        );
        assert!(payment.refund_ref.is_some());
    }
    assert_eq!(task_status(&app, &task).await, "assigned");
    assert_ledger_audits(&app).await;
    app
}

async fn a_webhook_arriving_while_the_provider_is_down_is_not_recorded_so_stripe_retries(app: TestApp) -> TestApp {
    let poster = poster(&app, "webhook-poster@example.com").await;
    let tasker = tasker(&app, "webhook-tasker@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &tasker, &task, 9_900).await);
    let (session, url) = checkout(&app, &poster, &task, &offer).await;
    pay(&app, &url).await;
    let event = json!({"id": "evt_down_1", "type": "checkout.session.completed", "data": {"object": {"id": session}}});
    faults(&app).inject(Call::CheckoutStatus, Fault::Down);
    let refused = send_webhook(&app, WEBHOOK_SECRET, &event).await;
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE, "{:?}", refused.body);
    assert!(!store::payments::stripe_event_seen(&app.server.state.db, "evt_down_1").await.unwrap());
    assert_eq!(payments_of(&app, &task).await[0].status, PaymentStatus::Pending);

    faults(&app).clear();
    let handled = send_webhook(&app, WEBHOOK_SECRET, &event).await;
    assert_eq!(handled.status, StatusCode::OK);
    assert_eq!(handled.body["handled"], true);
    assert_eq!(task_status(&app, &task).await, "assigned");
    assert_ledger_audits(&app).await;
    app
}

async fn an_expired_session_webhook_reopens_the_task(app: TestApp) -> TestApp {
    let poster = poster(&app, "expired-poster@example.com").await;
    let tasker = tasker(&app, "expired-tasker@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &tasker, &task, 5_500).await);
    let (session, _) = checkout(&app, &poster, &task, &offer).await;
    assert_eq!(task_status(&app, &task).await, "pending_payment");
    app.server.state.payments.sandbox().expire_checkout(&session).await.unwrap();
    let event = json!({"id": "evt_expired_1", "type": "checkout.session.expired", "data": {"object": {"id": session}}});
    let handled = send_webhook(&app, WEBHOOK_SECRET, &event).await;
    assert_eq!(handled.body["handled"], true, "{:?}", handled.body);
    assert_eq!(payments_of(&app, &task).await[0].status, PaymentStatus::Expired);
    assert_eq!(task_status(&app, &task).await, "open");
    let edited = app.patch(&format!("/api/offers/{offer}"), Some(&tasker), json!({ "amount_cents": 6_000 })).await;
    assert_eq!(edited.status, StatusCode::OK, "the offer is no longer frozen: {:?}", edited.body);
    assert_ledger_audits(&app).await;
    app
}

async fn the_sweep_confirms_a_session_paid_at_the_last_second(app: TestApp) -> TestApp {
    let poster = poster(&app, "late-poster@example.com").await;
    let tasker = tasker(&app, "late-tasker@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &tasker, &task, 6_600).await);
    let (_, url) = checkout(&app, &poster, &task, &offer).await;
    pay(&app, &url).await;
    // Nobody comes back to verify; the sweep closing the checkout finds it paid.
    let report = sweep_at(&app, later(Duration::from_secs(31 * 60))).await;
    assert_eq!(report.checkouts_checked, 1);
    assert_eq!(payments_of(&app, &task).await[0].status, PaymentStatus::Held);
    assert_eq!(task_status(&app, &task).await, "assigned");
    assert_ledger_audits(&app).await;
    app
}

async fn a_failing_check_is_pushed_back_and_never_expires_a_paid_session(app: TestApp) -> TestApp {
    let poster = poster(&app, "flaky-poster@example.com").await;
    let tasker = tasker(&app, "flaky-tasker@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &tasker, &task, 6_700).await);
    let (_, url) = checkout(&app, &poster, &task, &offer).await;
    pay(&app, &url).await;
    faults(&app).inject(Call::ExpireCheckout, Fault::Unavailable(1));
    let at = later(Duration::from_secs(31 * 60));
    let failed = sweep_at(&app, at).await;
    assert_eq!((failed.checkouts_checked, failed.checks_failed), (1, 1));
    let payment = &payments_of(&app, &task).await[0];
    assert_eq!((payment.status.as_str(), payment.check_attempts), ("pending", 1));
    assert_eq!(sweep_at(&app, at).await.checkouts_checked, 0, "pushed back by its backoff");
    sweep_at(&app, at.plus(Duration::from_secs(61))).await;
    assert_eq!(payments_of(&app, &task).await[0].status, PaymentStatus::Held);
    assert_ledger_audits(&app).await;
    app
}

async fn cancelling_after_payment_was_requested_refunds_the_poster(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 8_800).await;
    let requested =
        app.post(&format!("/api/tasks/{}/request-payment", assigned.task), Some(&assigned.tasker), json!({})).await;
    assert_eq!(requested.status, StatusCode::OK);
    assert_eq!(task_status(&app, &assigned.task).await, "completion_requested");
    cancel_by_agreement(&app, &assigned).await;
    assert_eq!(task_status(&app, &assigned.task).await, "cancelled");
    let payment = kept_payment(&app, &assigned.task).await;
    assert_eq!((payment.status.as_str(), payment.refunded_cents), ("refunded", 8_800));
    assert!(payment.refund_ref.is_some());
    assert_ledger_audits(&app).await;
    app
}

async fn a_declined_cancellation_leaves_the_payment_held_with_only_its_charge(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 4_400 + 1_000).await;
    let path = format!("/api/tasks/{}/cancellation", assigned.task);
    app.post(&path, Some(&assigned.poster), json!({ "reason": "Plans changed" })).await;
    let declined = app.post(&format!("{path}/decline"), Some(&assigned.tasker), json!({})).await;
    assert_eq!(declined.status, StatusCode::OK);
    let payment = kept_payment(&app, &assigned.task).await;
    assert_eq!(payment.status, PaymentStatus::Held);
    let rows = store::ledger::entries_for_task(&app.server.state.db, uuid(&assigned.task)).await.unwrap();
    assert_eq!(rows.iter().map(|r| (r.kind.as_str(), r.amount_cents)).collect::<Vec<_>>(), [("charge", 5_400)]);
    assert!(calls_of(&app, payment.id).await.is_empty());
    assert_ledger_audits(&app).await;
    app
}

async fn releasing_closes_a_cancellation_request_nobody_answered(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 7_000).await;
    let asked = app
        .post(
            &format!("/api/tasks/{}/cancellation", assigned.task),
            Some(&assigned.tasker),
            json!({ "reason": "Sick" }),
        )
        .await;
    assert_eq!(asked.status, StatusCode::CREATED);
    release(&app, &assigned).await;
    let pending = cancellations::pending_cancellation(&app.server.state.db, uuid(&assigned.task)).await.unwrap();
    assert!(pending.is_none(), "the request was left open: {pending:?}");
    let lapsed = cancellations::cancellations_lapsed(&app.server.state.db, later(Duration::from_secs(3 * 86_400)), 10)
        .await
        .unwrap();
    assert!(lapsed.is_empty(), "the lapse queue would retry it every minute: {lapsed:?}");
    assert_eq!(task_status(&app, &assigned.task).await, "completed");
    assert_ledger_audits(&app).await;
    app
}

/// Release, acceptance of a cancellation, auto-release and the lapse all race
/// for one task: exactly one wins, and money moves once.
async fn release_cancellation_auto_release_and_lapse_race_to_one_outcome(app: TestApp) -> TestApp {
    for round in 0..4 {
        let assigned = assigned_task(&app, 9_000 + round).await;
        let task = &assigned.task;
        app.post(&format!("/api/tasks/{task}/request-payment"), Some(&assigned.tasker), json!({})).await;
        let asked = app
            .post(&format!("/api/tasks/{task}/cancellation"), Some(&assigned.tasker), json!({ "reason": "Away" }))
            .await;
        assert_eq!(asked.status, StatusCode::CREATED);
        let far = later(AUTO_RELEASE_AFTER.max(CANCELLATION_ANSWER_WINDOW) + Duration::from_secs(60));
        let release_path = format!("/api/tasks/{task}/release");
        let accept_path = format!("/api/tasks/{task}/cancellation/accept");
        let (released, accepted, swept, swept_again) = tokio::join!(
            app.post(&release_path, Some(&assigned.poster), json!({})),
            app.post(&accept_path, Some(&assigned.poster), json!({})),
            sweep_at(&app, far),
            sweep_at(&app, far),
        );
        let winners =
            [released.status == StatusCode::OK, accepted.status == StatusCode::OK].iter().filter(|w| **w).count()
                + swept.auto_released
                + swept.cancellations_lapsed
                + swept_again.auto_released
                + swept_again.cancellations_lapsed;
        assert_eq!(winners, 1, "round {round}: {released:?} {accepted:?} {swept:?} {swept_again:?}");
        let status = task_status(&app, task).await;
        let payment = kept_payment(&app, task).await;
        match status.as_str() {
            "completed" => assert_eq!(payment.status, PaymentStatus::Released),
            "cancelled" => assert_eq!(payment.status, PaymentStatus::Refunded),
            other => panic!("round {round}: task ended {other}"),
        }
        assert!(cancellations::pending_cancellation(&app.server.state.db, uuid(task)).await.unwrap().is_none());
    }
    assert_ledger_audits(&app).await;
    app
}

async fn old_sandbox_payments_are_swept_by_the_sandbox_after_switching_to_stripe(app: TestApp) -> TestApp {
    // This server runs with Stripe configured (against an address where nothing
    // listens); a checkout opened earlier through the sandbox must still be
    // closed through the sandbox, not sent to Stripe.
    assert_eq!(app.server.state.payments.current().name(), "stripe");
    let poster_token = poster(&app, "switch-poster@example.com").await;
    let tasker_token = tasker(&app, "switch-tasker@example.com").await;
    let task = id(&post_task(&app, &poster_token, json!({})).await);
    let offer = id(&make_offer(&app, &tasker_token, &task, 5_100).await);
    let task_row = store::tasks::task(&app.server.state.db, uuid(&task)).await.unwrap().unwrap();
    let offer_row = store::offers::offer(&app.server.state.db, uuid(&offer)).await.unwrap().unwrap();
    let sandbox = app.server.state.payments.sandbox();
    let payment_id = store::db::new_id();
    let request = domain::payments::CheckoutRequest {
        payment_id,
        description: task_row.title.clone(),
        amount_cents: 5_100,
        fee_cents: 510,
        currency: "aud".into(),
        success_url: "http://app.test/ok".into(),
        cancel_url: "http://app.test/cancel".into(),
        transfer_group: format!("task_{task}"),
        metadata: Default::default(),
        expires_at: later(Duration::from_secs(31 * 60)).0,
    };
    let session = sandbox.create_checkout(&request).await.unwrap();
    let payment = store::escrow::NewPayment {
        id: payment_id,
        task_id: task_row.id,
        offer_id: offer_row.id,
        poster_id: task_row.poster_id,
        tasker_id: offer_row.tasker_id,
        provider: sandbox.name(),
        session_id: &session.id,
        checkout_url: &session.url,
        amount_cents: 5_100,
        fee_cents: 510,
        currency: "aud",
        expires_at: later(Duration::from_secs(30 * 60)),
    };
    assert!(store::escrow::start_checkout(&app.server.state.db, &payment, Timestamp::now()).await.unwrap());
    let report = sweep_at(&app, later(Duration::from_secs(31 * 60))).await;
    assert_eq!((report.checkouts_checked, report.checks_failed), (1, 0), "{report:?}");
    assert_eq!(payments_of(&app, &task).await[0].status, PaymentStatus::Expired);
    assert_eq!(task_status(&app, &task).await, "open");
    app
}

/// The sweep runs by itself, every `PAYMENTS_SWEEP_SECS`: a checkout due for its check is closed
/// without anyone calling it.
async fn the_background_sweep_closes_a_checkout_due_for_its_check(app: TestApp) -> TestApp {
    let poster = poster(&app, "background-poster@example.com").await;
    let tasker = tasker(&app, "background-tasker@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &tasker, &task, 5_200).await);
    checkout(&app, &poster, &task, &offer).await;
    assert_eq!(task_status(&app, &task).await, "pending_payment");
    // Due now rather than in 30 minutes.
    store::on_pool!(&app.server.state.db, |pool| {
        sqlx::query("update payments set next_check_at = 0 where task_id = $1")
            .bind(uuid(&task))
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })
    .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while task_status(&app, &task).await != "open" {
        assert!(std::time::Instant::now() < deadline, "the background sweep did not close the checkout");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(payments_of(&app, &task).await[0].status, PaymentStatus::Expired);
    app
}

fn with_a_sweep_every_second(config: &mut domain::config::Config) {
    config.payments_sweep_secs = 1;
}

fn with_webhooks(config: &mut domain::config::Config) {
    config.payments_sweep_secs = 0;
    config.stripe_webhook_secret = Some(domain::config::Secret::new(WEBHOOK_SECRET));
}

fn with_stripe_unreachable(config: &mut domain::config::Config) {
    config.payments_sweep_secs = 0;
    config.stripe_secret_key = Some(domain::config::Secret::new("sk_test_unreachable"));
    config.stripe_api_base = "http://127.0.0.1:9".into();
}

on_both_backends! {
    transfer_failing_after_commit_is_retried_by_the_sweep: with_webhooks,
    refund_completes_within_two_sweeps_behind_150_permanently_failing_transfers: with_webhooks,
    a_call_failing_every_time_is_parked_for_an_operator_and_can_be_retried: with_webhooks,
    every_charge_that_lost_the_race_is_refunded_with_its_own_ledger_rows: with_webhooks,
    a_webhook_arriving_while_the_provider_is_down_is_not_recorded_so_stripe_retries: with_webhooks,
    an_expired_session_webhook_reopens_the_task: with_webhooks,
    the_sweep_confirms_a_session_paid_at_the_last_second: with_webhooks,
    a_failing_check_is_pushed_back_and_never_expires_a_paid_session: with_webhooks,
    cancelling_after_payment_was_requested_refunds_the_poster: with_webhooks,
    a_declined_cancellation_leaves_the_payment_held_with_only_its_charge: with_webhooks,
    releasing_closes_a_cancellation_request_nobody_answered: with_webhooks,
    release_cancellation_auto_release_and_lapse_race_to_one_outcome: with_webhooks,
    old_sandbox_payments_are_swept_by_the_sandbox_after_switching_to_stripe: with_stripe_unreachable,
    the_background_sweep_closes_a_checkout_due_for_its_check: with_a_sweep_every_second,
}
