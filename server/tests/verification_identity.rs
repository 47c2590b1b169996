//! Identity verification (issue 24): a session with the identity provider (the sandbox page
//! offline, Stripe Identity when configured, its outcome from the `identity.verification_session.*`
//! webhooks); only the outcome and its date are stored. A tasker's transfers wait in the outbox
//! until their identity is verified (`PAYOUTS_REQUIRE_IDENTITY`), and go out when it is.

use domain::config::{Config, Secret};
use model::states::ProviderCallStatus;

use crate::common::{self, stripe_fake, stripe_spec};

use common::{
    TestApp,
    escrow::{Assigned, assigned_task, calls_of, kept_payment, send_webhook},
    market::{id, make_offer, post_task, poster, tasker},
    rows::snapshot_table,
};
use reqwest::{StatusCode, header};
use serde_json::{Value, json};
use stripe_fake::{FakeStripe, event};

on_both_backends!(
    a_person_verifies_their_identity_on_the_sandbox_page,
    a_failed_check_is_recorded_and_another_may_be_started,
    sandbox_sessions_are_found_only_by_their_address,
    offers_show_the_id_badge,
);

mod payout_hold {
    use super::*;
    on_both_backends!(config = require_identity; a_released_transfer_waits_for_identity_and_goes_out_when_verified);
}

mod stripe {
    use super::*;
    on_both_backends!(given_backend; stripe_identity_decides_through_its_webhook);
}

fn require_identity(config: &mut Config) {
    config.payouts_require_identity = true;
    config.payments_sweep_secs = 0;
}

async fn start_session(app: &TestApp, token: &str) -> String {
    let started = app.post("/api/me/identity/session", Some(token), json!({})).await;
    assert_eq!(started.status, StatusCode::OK, "{:?}", started.body);
    started.body["url"].as_str().expect("a url").to_owned()
}

/// Presses Verify or Fail on the sandbox page; returns the status and where it redirected.
async fn decide(app: &TestApp, url: &str, action: &str) -> (StatusCode, String) {
    let response = app.client.post(url).form(&[("action", action)]).send().await.unwrap();
    let location = response.headers().get(header::LOCATION).map_or(String::new(), |v| v.to_str().unwrap().to_owned());
    (response.status(), location)
}

async fn my_verification(app: &TestApp, token: &str) -> Value {
    let mine = app.get("/api/me/verification", Some(token)).await;
    assert_eq!(mine.status, StatusCode::OK, "{:?}", mine.body);
    mine.body
}

async fn user_id(app: &TestApp, token: &str) -> String {
    app.get("/api/me", Some(token)).await.body["user"]["id"].as_str().unwrap().to_owned()
}

async fn a_person_verifies_their_identity_on_the_sandbox_page(app: TestApp) -> TestApp {
    let token = tasker(&app, "tasker@example.com").await;
    let url = start_session(&app, &token).await;
    assert!(url.starts_with(&app.url("/sandbox/identity/vs_sandbox_")), "{url}");
    let page = app.client.get(&url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let csp = page.headers()[header::CONTENT_SECURITY_POLICY].to_str().unwrap().to_owned();
    assert!(csp.contains("style-src 'self' 'sha256-"), "the page's style is allowed by its hash: {csp}");
    let html = page.text().await.unwrap();
    assert!(
        html.contains("Verify your identity") && html.contains(">Verify</button>") && html.contains(">Fail</button>")
    );
    let pending = my_verification(&app, &token).await;
    assert_eq!((pending["identity"].as_bool(), pending["identity_pending"].as_bool()), (Some(false), Some(true)));

    let (status, location) = decide(&app, &url, "verify").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location, app.url("/settings?identity=done"));
    let mine = my_verification(&app, &token).await;
    assert_eq!(mine["identity"], true);
    assert_eq!(mine["identity_pending"], false);
    assert!(mine["identity_verified_at"].is_string());
    let me = user_id(&app, &token).await;
    let public = app.get(&format!("/api/profiles/{me}"), None).await;
    assert_eq!(public.body["verified"]["identity"], true);
    let profile = app.get("/api/me", Some(&token)).await.body["profile"].clone();
    assert_eq!(profile["identity_verified"], true);

    let stored = snapshot_table(&app, "identity_sessions").await;
    let again = app.post("/api/me/identity/session", Some(&token), json!({})).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "already verified: {:?}", again.body);
    let (_, _) = decide(&app, &url, "fail").await;
    assert_eq!(snapshot_table(&app, "identity_sessions").await, stored, "a decided session stays decided");
    assert_eq!(my_verification(&app, &token).await["identity"], true);
    app
}

async fn a_failed_check_is_recorded_and_another_may_be_started(app: TestApp) -> TestApp {
    let token = tasker(&app, "tasker@example.com").await;
    let url = start_session(&app, &token).await;
    assert_eq!(decide(&app, &url, "fail").await.0, StatusCode::SEE_OTHER);
    let failed = my_verification(&app, &token).await;
    assert_eq!((failed["identity"].as_bool(), failed["identity_failed"].as_bool()), (Some(false), Some(true)));
    let retry = start_session(&app, &token).await;
    assert_ne!(retry, url);
    assert_eq!(decide(&app, &retry, "verify").await.0, StatusCode::SEE_OTHER);
    assert_eq!(my_verification(&app, &token).await["identity"], true);
    app
}

async fn sandbox_sessions_are_found_only_by_their_address(app: TestApp) -> TestApp {
    let token = tasker(&app, "tasker@example.com").await;
    let url = start_session(&app, &token).await;
    let before = snapshot_table(&app, "identity_sessions").await;
    let forged = app.url("/sandbox/identity/vs_sandbox_0190000000007000800000000000000");
    assert_eq!(app.client.get(&forged).send().await.unwrap().status(), StatusCode::NOT_FOUND);
    assert_eq!(decide(&app, &forged, "verify").await.0, StatusCode::NOT_FOUND);
    assert_eq!(decide(&app, &url, "maybe").await.0, StatusCode::BAD_REQUEST);
    assert_eq!(snapshot_table(&app, "identity_sessions").await, before, "refusals decide nothing");
    assert_eq!(my_verification(&app, &token).await["identity"], false);
    assert_eq!(app.post("/api/me/identity/session", None, json!({})).await.status, StatusCode::UNAUTHORIZED);
    app
}

async fn offers_show_the_id_badge(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let worker = tasker(&app, "tasker@example.com").await;
    let task = id(&post_task(&app, &owner, json!({})).await);
    make_offer(&app, &worker, &task, 9000).await;
    let url = start_session(&app, &worker).await;
    decide(&app, &url, "verify").await;
    let offers = app.get(&format!("/api/tasks/{task}/offers"), None).await;
    assert_eq!(offers.body["items"][0]["tasker"]["verified"], json!({ "identity": true, "phone": false }));
    app
}

async fn set_up_sandbox_payouts(app: &TestApp, token: &str) {
    let started = app.post("/api/me/payouts/onboarding", Some(token), json!({})).await;
    assert_eq!(started.status, StatusCode::OK, "{:?}", started.body);
    let url = started.body["url"].as_str().unwrap();
    let form =
        [("action", "save"), ("account_name", "Sam Tasker"), ("bsb", "000-000"), ("account_number", "000123456")];
    assert_eq!(app.client.post(url).form(&form).send().await.unwrap().status(), StatusCode::SEE_OTHER);
}

async fn release(app: &TestApp, assigned: &Assigned) {
    let requested =
        app.post(&format!("/api/tasks/{}/request-payment", assigned.task), Some(&assigned.tasker), json!({})).await;
    assert_eq!(requested.status, StatusCode::OK, "{:?}", requested.body);
    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&assigned.poster), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
}

async fn a_released_transfer_waits_for_identity_and_goes_out_when_verified(app: TestApp) -> TestApp {
    let assigned = assigned_task(&app, 10_000).await;
    set_up_sandbox_payouts(&app, &assigned.tasker).await;
    release(&app, &assigned).await;

    let payment = kept_payment(&app, &assigned.task).await;
    let [call] = calls_of(&app, payment.id).await.try_into().expect("one transfer owed");
    assert_eq!((call.kind.as_str(), call.status.as_str(), call.attempts), ("transfer", "pending", 0));
    let earnings = app.get("/api/me/earnings", Some(&assigned.tasker)).await.body;
    assert_eq!(earnings["identity_needed"], true);
    assert_eq!(earnings["items"][0]["state"], "waiting_for_identity");
    let a_day_later = store::db::Timestamp::now().plus(std::time::Duration::from_secs(86_400));
    let swept = domain::payments::sweep::sweep(&app.server.state, a_day_later).await.unwrap();
    assert_eq!(swept.provider_calls_retried, 0, "the sweep leaves a held transfer alone");
    let [still] = calls_of(&app, payment.id).await.try_into().unwrap();
    assert_eq!((still.status.as_str(), still.attempts), ("pending", 0));

    let url = start_session(&app, &assigned.tasker).await;
    assert_eq!(decide(&app, &url, "verify").await.0, StatusCode::SEE_OTHER);
    let [sent] = calls_of(&app, payment.id).await.try_into().unwrap();
    assert_eq!(sent.status, ProviderCallStatus::Done, "verifying sends the transfer at once");
    let earnings = app.get("/api/me/earnings", Some(&assigned.tasker)).await.body;
    assert_eq!(earnings["identity_needed"], false);
    assert_eq!(earnings["items"][0]["state"], "paid_out");
    common::escrow::assert_ledger_audits(&app).await;
    app
}

const WEBHOOK_SECRET: &str = "whsec_identity_test";
const SESSION: &str = "vs_1NuNAILkdIwHu7ixh7Ovj7Xr";

/// A VerificationSession as Stripe returns it.
fn verification_session(status: &str, last_error: Value) -> Value {
    json!({
        "id": SESSION, "object": "identity.verification_session", "client_secret": null, "created": 1_700_000_000,
        "last_error": last_error, "last_verification_report": null, "livemode": false, "metadata": {},
        "options": {"document": {"require_matching_selfie": true}}, "redaction": null, "status": status,
        "type": "document", "url": (status == "requires_input").then(|| format!("https://verify.stripe.com/start/{SESSION}")),
        "verified_outputs": null,
    })
}

async fn stripe_identity_decides_through_its_webhook(backend: common::Backend) {
    let fake = FakeStripe::start().await;
    common::run(
        backend,
        |config| {
            config.payments_sweep_secs = 0;
            config.stripe_secret_key = Some(Secret::new("sk_test_fake"));
            config.stripe_api_base = fake.uri();
            config.stripe_webhook_secret = Some(Secret::new(WEBHOOK_SECRET));
        },
        |app| async {
            let token = tasker(&app, "tasker@example.com").await;
            let created = verification_session("requires_input", Value::Null);
            fake.on("POST", "/v1/identity/verification_sessions", 200, created.clone()).mount(&fake.server).await;
            fake.on("GET", &format!("/v1/identity/verification_sessions/{SESSION}"), 200, created)
                .with_priority(10)
                .mount(&fake.server)
                .await;
            let url = start_session(&app, &token).await;
            assert_eq!(url, format!("https://verify.stripe.com/start/{SESSION}"));
            let create = fake.requests().await.into_iter().find(|r| r.method.as_str() == "POST").unwrap();
            let form: std::collections::BTreeMap<String, String> =
                url::form_urlencoded::parse(&create.body).into_owned().collect();
            assert_eq!(form["type"], "document");
            assert_eq!(form["options[document][require_matching_selfie]"], "true");
            assert_eq!(form["return_url"], app.url("/settings?identity=done"));
            assert!(create.headers.contains_key("idempotency-key"));
            assert_eq!(my_verification(&app, &token).await["identity_pending"], true, "Stripe: still requires input");

            let verified = verification_session("verified", Value::Null);
            fake.on("GET", &format!("/v1/identity/verification_sessions/{SESSION}"), 200, verified.clone())
                .with_priority(1)
                .mount(&fake.server)
                .await;
            // The event body says verified, but only Stripe's own answer to our GET decides.
            let delivered = event("evt_idv_1", "identity.verification_session.verified", verified);
            assert_eq!(stripe_spec::check_event(&delivered), Ok(()), "the event as Stripe's spec describes it");
            let handled = send_webhook(&app, WEBHOOK_SECRET, &delivered).await;
            assert_eq!(handled.status, StatusCode::OK, "{:?}", handled.body);
            assert_eq!(handled.body["handled"], true, "{:?}", handled.body);
            let mine = my_verification(&app, &token).await;
            assert_eq!(mine["identity"], true);
            let replay = send_webhook(&app, WEBHOOK_SECRET, &delivered).await;
            assert_eq!(replay.body["handled"], false, "a replayed event does nothing");
            let unknown = event("evt_idv_2", "identity.verification_session.verified", json!({"id": "vs_unknown"}));
            assert_eq!(send_webhook(&app, WEBHOOK_SECRET, &unknown).await.body["handled"], false);
            app
        },
    )
    .await;
    fake.assert_requests_conform().await;
}
