//! Payouts through the whole server against the spec-checked fake Stripe, on
//! both backends: released before the tasker set up payouts, the transfer
//! waits (Stripe needs a destination account) and the Earnings line says so;
//! the tasker onboards through an Express account and an Account Link; once
//! Stripe reports the account able to receive transfers (`account.updated`),
//! the waiting transfer goes out to it at once.

use domain::config::{Config, Secret};
use model::states::ProviderCallStatus;
use store::{ledger, payments, provider_calls};

use crate::common::{self, stripe_fake, stripe_spec};

use common::{
    TestApp,
    escrow::send_webhook,
    market::{id, make_offer, post_task, poster, tasker},
};
use reqwest::StatusCode;
use serde_json::{Value, json};
use stripe_fake::{FakeStripe, account, account_link, checkout_session, event, payment_intent, transfer};

const WEBHOOK_SECRET: &str = "whsec_payouts_test";
const SESSION: &str = "cs_test_payouts_1";
const ACCOUNT: &str = "acct_tasker_1";

fn configure(config: &mut Config, fake: &FakeStripe) {
    config.payments_sweep_secs = 0;
    config.stripe_secret_key = Some(Secret::new("sk_test_fake"));
    config.stripe_api_base = fake.uri();
    config.stripe_webhook_secret = Some(Secret::new(WEBHOOK_SECRET));
}

async fn earnings_line(app: &TestApp, token: &str) -> Value {
    let earnings = app.get("/api/me/earnings", Some(token)).await;
    assert_eq!(earnings.status, StatusCode::OK, "{:?}", earnings.body);
    earnings.body["items"][0].clone()
}

async fn payout_status(app: &TestApp, token: &str) -> Value {
    app.get("/api/me/payout-account", Some(token)).await.body["status"].clone()
}

async fn a_transfer_released_before_payout_setup_goes_out_when_stripe_reports_the_account_ready(
    backend: common::Backend,
) {
    let fake = FakeStripe::start().await;
    common::run(
        backend,
        |config| configure(config, &fake),
        |app| async {
            let paid = checkout_session(SESSION, "complete", "paid", payment_intent("pi_1", "succeeded", Some("ch_1")));
            fake.on("POST", "/v1/checkout/sessions", 200, checkout_session(SESSION, "open", "unpaid", Value::Null))
                .mount(&fake.server)
                .await;
            fake.on("GET", &format!("/v1/checkout/sessions/{SESSION}"), 200, paid).mount(&fake.server).await;
            let poster = poster(&app, "stripe-poster@example.com").await;
            let tasker = tasker(&app, "stripe-tasker@example.com").await;
            let task = id(&post_task(&app, &poster, json!({})).await);
            let offer = id(&make_offer(&app, &tasker, &task, 20_000).await);
            let body = json!({ "task_id": task, "offer_id": offer });
            assert_eq!(app.post("/api/payments/checkout-session", Some(&poster), body).await.status, StatusCode::OK);
            let body = json!({ "session_id": SESSION, "task_id": task, "offer_id": offer });
            assert_eq!(app.post("/api/payments/verify", Some(&poster), body).await.body["payment_status"], "held");

            let released = app.post(&format!("/api/tasks/{task}/release"), Some(&poster), json!({})).await;
            assert_eq!(released.body["status"], "completed", "{:?}", released.body);
            assert_eq!(earnings_line(&app, &tasker).await["state"], "waiting_for_payout_setup");

            fake.on("POST", "/v1/accounts", 200, account(ACCOUNT, "inactive", false)).mount(&fake.server).await;
            let link = account_link("https://connect.stripe.test/setup/acct_tasker_1");
            fake.on("POST", "/v1/account_links", 200, link).mount(&fake.server).await;
            fake.on("GET", &format!("/v1/accounts/{ACCOUNT}"), 200, account(ACCOUNT, "inactive", false))
                .with_priority(10)
                .mount(&fake.server)
                .await;
            let started = app.post("/api/me/payouts/onboarding", Some(&tasker), json!({})).await;
            assert_eq!(started.status, StatusCode::OK, "{:?}", started.body);
            assert_eq!(started.body["url"], "https://connect.stripe.test/setup/acct_tasker_1");
            assert_eq!(payout_status(&app, &tasker).await, "pending", "asked Stripe: not finished");
            assert_eq!(earnings_line(&app, &tasker).await["state"], "waiting_for_payout_setup");

            // The tasker finished on Stripe; Stripe says so in a webhook.
            let ready = account(ACCOUNT, "active", true);
            fake.on("GET", &format!("/v1/accounts/{ACCOUNT}"), 200, ready.clone())
                .with_priority(1)
                .mount(&fake.server)
                .await;
            fake.on("POST", "/v1/transfers", 200, transfer("tr_1", 18_000, ACCOUNT, Some("ch_1")))
                .mount(&fake.server)
                .await;
            let updated = event("evt_acct_1", "account.updated", ready);
            assert_eq!(stripe_spec::check_event(&updated), Ok(()), "the event as Stripe's spec describes it");
            let handled = send_webhook(&app, WEBHOOK_SECRET, &updated).await;
            assert_eq!(handled.body["handled"], true, "{:?}", handled.body);

            let transfers: Vec<_> =
                fake.requests().await.into_iter().filter(|request| request.url.path() == "/v1/transfers").collect();
            let [sent] = transfers.try_into().expect("one transfer request");
            let form: std::collections::BTreeMap<String, String> =
                url::form_urlencoded::parse(&sent.body).into_owned().collect();
            assert_eq!((form["destination"].as_str(), form["amount"].as_str()), (ACCOUNT, "18000"));
            let payment = payments::payment_by_session(&app.server.state.db, SESSION).await.unwrap().unwrap();
            let [call] =
                provider_calls::for_payment(&app.server.state.db, payment.id).await.unwrap().try_into().unwrap();
            assert_eq!(call.status, ProviderCallStatus::Done);
            assert_eq!(payout_status(&app, &tasker).await, "ready");
            let line = earnings_line(&app, &tasker).await;
            assert_eq!((line["state"].as_str(), line["payout_cents"].as_i64()), (Some("paid_out"), Some(18_000)));
            let replay = send_webhook(
                &app,
                WEBHOOK_SECRET,
                &event("evt_acct_2", "account.updated", account(ACCOUNT, "active", true)),
            )
            .await;
            assert_eq!(replay.body["handled"], false, "already ready: nothing to do");
            assert!(ledger::audit(&app.server.state.db).await.unwrap().is_empty());
            app
        },
    )
    .await;
    fake.assert_requests_conform().await;
}

on_both_backends!(given_backend;
    a_transfer_released_before_payout_setup_goes_out_when_stripe_reports_the_account_ready,
);
