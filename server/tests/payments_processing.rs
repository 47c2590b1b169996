//! Payments that settle later (BECS Direct Debit and Stripe's other delayed
//! methods) through the whole server against the spec-checked fake Stripe, on
//! both backends: a Checkout Session that is `complete` but `unpaid` is
//! `processing` — never expired by the sweep, the task kept for the poster —
//! until `checkout.session.async_payment_succeeded` (held, assigned) or
//! `async_payment_failed` (failed, task open again, poster told).
//! Before `processing` existed such a session read as open, the sweep expired
//! it after 30 minutes and reopened the task, and the later success was lost.

use domain::{
    config::{Config, Secret},
    payments::sweep,
};
use model::states::PaymentStatus;
use store::{db::Timestamp, ledger, payments};

use crate::common::{self, stripe_fake};

use std::time::Duration;

use common::{
    TestApp,
    escrow::{notification_titles, send_webhook, task_status},
    market::{id, make_offer, post_task, poster, tasker},
};
use reqwest::StatusCode;
use serde_json::{Value, json};
use stripe_fake::{FakeStripe, checkout_session, error, event, payment_intent};

const WEBHOOK_SECRET: &str = "whsec_processing_test";
const SESSION: &str = "cs_test_becs_1";

struct Checkout {
    poster: String,
    tasker: String,
    task: String,
    offer: String,
}

fn configure(config: &mut Config, fake: &FakeStripe) {
    config.payments_sweep_secs = 0;
    config.stripe_secret_key = Some(Secret::new("sk_test_fake"));
    config.stripe_api_base = fake.uri();
    config.stripe_webhook_secret = Some(Secret::new(WEBHOOK_SECRET));
}

/// The session as Stripe reports it once the poster submitted a direct debit.
async fn answer_session(fake: &FakeStripe, priority: u8, session: Value) {
    fake.on("GET", &format!("/v1/checkout/sessions/{SESSION}"), 200, session)
        .with_priority(priority)
        .mount(&fake.server)
        .await;
}

async fn start_checkout(app: &TestApp, fake: &FakeStripe) -> Checkout {
    fake.on("POST", "/v1/checkout/sessions", 200, checkout_session(SESSION, "open", "unpaid", Value::Null))
        .mount(&fake.server)
        .await;
    // A completed session can no longer be expired: Stripe refuses.
    let refusal = error("invalid_request_error", None, "Only Checkout Sessions with a status of open can be expired.");
    fake.on("POST", &format!("/v1/checkout/sessions/{SESSION}/expire"), 400, refusal).mount(&fake.server).await;
    let poster = poster(app, "becs-poster@example.com").await;
    let tasker = tasker(app, "becs-tasker@example.com").await;
    let task = id(&post_task(app, &poster, json!({})).await);
    let offer = id(&make_offer(app, &tasker, &task, 12_345).await);
    let started =
        app.post("/api/payments/checkout-session", Some(&poster), json!({ "task_id": task, "offer_id": offer })).await;
    assert_eq!(started.status, StatusCode::OK, "{:?}", started.body);
    assert_eq!(started.body["session_id"], SESSION);
    let processing = checkout_session(SESSION, "complete", "unpaid", payment_intent("pi_becs_1", "processing", None));
    answer_session(fake, 10, processing).await;
    Checkout { poster, tasker, task, offer }
}

async fn verify(app: &TestApp, checkout: &Checkout) -> common::Response {
    let body = json!({ "session_id": SESSION, "task_id": checkout.task, "offer_id": checkout.offer });
    app.post("/api/payments/verify", Some(&checkout.poster), body).await
}

async fn payment(app: &TestApp) -> payments::PaymentRow {
    payments::payment_by_session(&app.server.state.db, SESSION).await.unwrap().expect("the payment")
}

async fn a_direct_debit_is_processing_outlives_the_checkout_window_and_settles_later(backend: common::Backend) {
    let fake = FakeStripe::start().await;
    common::run(
        backend,
        |config| configure(config, &fake),
        |app| async {
            let checkout = start_checkout(&app, &fake).await;
            let verified = verify(&app, &checkout).await;
            assert_eq!(verified.body["payment_status"], "processing", "{:?}", verified.body);
            assert_eq!(verified.body["success"], false);
            assert_eq!(task_status(&app, &checkout.task).await, "pending_payment");
            assert!(notification_titles(&app, &checkout.poster).await.contains(&"Payment processing".to_owned()));

            // Long past the 30-minute checkout window, the sweep asks again and keeps it.
            sweep::sweep(&app.server.state, Timestamp::now().plus(Duration::from_secs(2 * 3600))).await.unwrap();
            assert_eq!(payment(&app).await.status, PaymentStatus::Processing, "a processing payment never expires");
            assert_eq!(task_status(&app, &checkout.task).await, "pending_payment");
            let second = app
                .post(
                    "/api/payments/checkout-session",
                    Some(&checkout.poster),
                    json!({ "task_id": checkout.task, "offer_id": checkout.offer }),
                )
                .await;
            assert_eq!(
                second.status,
                StatusCode::CONFLICT,
                "no second charge while one is processing: {:?}",
                second.body
            );

            let paid = checkout_session(
                SESSION,
                "complete",
                "paid",
                payment_intent("pi_becs_1", "succeeded", Some("ch_becs_1")),
            );
            answer_session(&fake, 1, paid.clone()).await;
            let handled = send_webhook(
                &app,
                WEBHOOK_SECRET,
                &event("evt_becs_ok", "checkout.session.async_payment_succeeded", paid),
            )
            .await;
            assert_eq!(handled.body["handled"], true, "{:?}", handled.body);
            let settled = payment(&app).await;
            assert_eq!((settled.status.as_str(), settled.charge_ref.as_deref()), ("held", Some("ch_becs_1")));
            assert_eq!(task_status(&app, &checkout.task).await, "assigned");
            assert!(ledger::audit(&app.server.state.db).await.unwrap().is_empty());
            app
        },
    )
    .await;
    fake.assert_requests_conform().await;
}

async fn a_direct_debit_that_fails_reopens_the_task_and_tells_the_poster(backend: common::Backend) {
    let fake = FakeStripe::start().await;
    common::run(
        backend,
        |config| configure(config, &fake),
        |app| async {
            let checkout = start_checkout(&app, &fake).await;
            assert_eq!(verify(&app, &checkout).await.body["payment_status"], "processing");
            let failed = checkout_session(
                SESSION,
                "complete",
                "unpaid",
                payment_intent("pi_becs_1", "requires_payment_method", None),
            );
            answer_session(&fake, 1, failed.clone()).await;
            let handled = send_webhook(
                &app,
                WEBHOOK_SECRET,
                &event("evt_becs_fail", "checkout.session.async_payment_failed", failed),
            )
            .await;
            assert_eq!(handled.body["handled"], true, "{:?}", handled.body);
            assert_eq!(payment(&app).await.status, PaymentStatus::Failed);
            assert_eq!(task_status(&app, &checkout.task).await, "open");
            assert!(notification_titles(&app, &checkout.poster).await.contains(&"Payment failed".to_owned()));
            let verified = verify(&app, &checkout).await;
            assert_eq!(
                (verified.body["success"].clone(), verified.body["payment_status"].clone()),
                (json!(false), json!("failed"))
            );
            assert!(ledger::audit(&app.server.state.db).await.unwrap().is_empty());
            app
        },
    )
    .await;
    fake.assert_requests_conform().await;
}

/// While a debit is processing the task is spoken for: the poster cannot
/// cancel it, and the tasker can neither withdraw nor reprice the offer.
async fn a_processing_payment_keeps_the_task_and_its_offer(backend: common::Backend) {
    let fake = FakeStripe::start().await;
    common::run(
        backend,
        |config| configure(config, &fake),
        |app| async {
            let checkout = start_checkout(&app, &fake).await;
            assert_eq!(verify(&app, &checkout).await.body["payment_status"], "processing");
            let cancel =
                app.post(&format!("/api/tasks/{}/cancel", checkout.task), Some(&checkout.poster), json!({})).await;
            assert_eq!(cancel.status, StatusCode::CONFLICT, "{:?}", cancel.body);
            let withdraw =
                app.post(&format!("/api/offers/{}/withdraw", checkout.offer), Some(&checkout.tasker), json!({})).await;
            assert_eq!(withdraw.status, StatusCode::CONFLICT, "{:?}", withdraw.body);
            let reprice = app
                .patch(
                    &format!("/api/offers/{}", checkout.offer),
                    Some(&checkout.tasker),
                    json!({ "amount_cents": 1_000 }),
                )
                .await;
            assert_eq!(reprice.status, StatusCode::CONFLICT, "{:?}", reprice.body);
            assert_eq!(payment(&app).await.amount_cents, 12_345);
            app
        },
    )
    .await;
    fake.assert_requests_conform().await;
}

on_both_backends!(given_backend;
    a_direct_debit_is_processing_outlives_the_checkout_window_and_settles_later,
    a_direct_debit_that_fails_reopens_the_task_and_tells_the_poster,
    a_processing_payment_keeps_the_task_and_its_offer,
);
