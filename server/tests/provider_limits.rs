//! Calls that reach the payment provider are limited per account, on both
//! backends, so one account cannot spend the platform's Stripe rate limit:
//! an unfinished payout account is looked up at most once every 30 s (pending
//! in between), onboarding links and payment verifications are counted.

use domain::config::{Config, Secret};

use crate::common::{self, stripe_fake};

use common::{TestApp, market::tasker};
use reqwest::StatusCode;
use serde_json::json;
use stripe_fake::{FakeStripe, account, account_link};
use uuid::Uuid;

const ACCOUNT: &str = "acct_limits_1";

fn configure(config: &mut Config, fake: &FakeStripe) {
    config.payments_sweep_secs = 0;
    config.stripe_secret_key = Some(Secret::new("sk_test_fake"));
    config.stripe_api_base = fake.uri();
}

async fn account_lookups(fake: &FakeStripe) -> usize {
    let path = format!("/v1/accounts/{ACCOUNT}");
    fake.requests()
        .await
        .into_iter()
        .filter(|request| request.method.as_str() == "GET" && request.url.path() == path)
        .count()
}

async fn onboarding_started(app: &TestApp, fake: &FakeStripe) -> String {
    fake.on("POST", "/v1/accounts", 200, account(ACCOUNT, "inactive", false)).mount(&fake.server).await;
    let link = account_link("https://connect.stripe.test/setup/acct_limits_1");
    fake.on("POST", "/v1/account_links", 200, link).mount(&fake.server).await;
    fake.on("GET", &format!("/v1/accounts/{ACCOUNT}"), 200, account(ACCOUNT, "inactive", false))
        .mount(&fake.server)
        .await;
    let token = tasker(app, "limits-tasker@example.com").await;
    let started = app.post("/api/me/payouts/onboarding", Some(&token), json!({})).await;
    assert_eq!(started.status, StatusCode::OK, "{:?}", started.body);
    token
}

async fn an_unfinished_payout_account_is_looked_up_at_most_once_in_thirty_seconds(backend: common::Backend) {
    let fake = FakeStripe::start().await;
    common::run(
        backend,
        |config| configure(config, &fake),
        |app| async {
            let token = onboarding_started(&app, &fake).await;
            let before = account_lookups(&fake).await;
            for _ in 0..5 {
                let status = app.get("/api/me/payout-account", Some(&token)).await;
                assert_eq!((status.status, status.body["status"].as_str()), (StatusCode::OK, Some("pending")));
            }
            assert_eq!(account_lookups(&fake).await - before, 1, "five looks, one question to Stripe");
            app
        },
    )
    .await;
}

async fn onboarding_links_and_verifications_are_limited_per_account(backend: common::Backend) {
    let fake = FakeStripe::start().await;
    common::run(
        backend,
        |config| configure(config, &fake),
        |app| async {
            let token = onboarding_started(&app, &fake).await;
            for _ in 1..10 {
                assert_eq!(
                    app.post("/api/me/payouts/onboarding", Some(&token), json!({})).await.status,
                    StatusCode::OK
                );
            }
            let refused = app.post("/api/me/payouts/onboarding", Some(&token), json!({})).await;
            assert_eq!((refused.status, refused.error_code()), (StatusCode::TOO_MANY_REQUESTS, "rate_limited"));

            let body = json!({ "session_id": "cs_unknown", "task_id": Uuid::now_v7(), "offer_id": Uuid::now_v7() });
            for _ in 0..20 {
                assert_eq!(
                    app.post("/api/payments/verify", Some(&token), body.clone()).await.status,
                    StatusCode::NOT_FOUND
                );
            }
            let refused = app.post("/api/payments/verify", Some(&token), body).await;
            assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
            let other = json!({ "session_id": "cs_other", "task_id": Uuid::now_v7(), "offer_id": Uuid::now_v7() });
            let next = app.post("/api/payments/verify", Some(&token), other).await;
            assert_eq!(next.status, StatusCode::NOT_FOUND, "the next checkout is verified as usual");
            app
        },
    )
    .await;
}

on_both_backends!(given_backend;
    an_unfinished_payout_account_is_looked_up_at_most_once_in_thirty_seconds,
    onboarding_links_and_verifications_are_limited_per_account
);
