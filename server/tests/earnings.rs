//! Money across a person's tasks, on both backends: a tasker sets up payouts
//! on the sandbox's onboarding page, sees their Earnings move from held to
//! paid out, and a transfer refused for want of payout setup waits and goes
//! out as soon as the setup is finished; a poster sees their receipts.

use domain::payments::{
    calls,
    sandbox::{Call, Fault},
    sweep,
};
use model::states::{PaymentStatus, ProviderCallStatus};
use store::db::Timestamp;

use crate::common;

use common::{
    TestApp,
    escrow::{Assigned, assign, calls_of, kept_payment},
    market::{poster, tasker},
};
use reqwest::{StatusCode, header};
use serde_json::{Value, json};

fn faults(app: &TestApp) -> &domain::payments::SandboxFaults {
    app.server.state.payments.sandbox().faults()
}

async fn payout_status(app: &TestApp, token: &str) -> String {
    let account = app.get("/api/me/payout-account", Some(token)).await;
    assert_eq!(account.status, StatusCode::OK, "{:?}", account.body);
    account.body["status"].as_str().unwrap().to_owned()
}

async fn earnings(app: &TestApp, token: &str) -> Value {
    let earnings = app.get("/api/me/earnings", Some(token)).await;
    assert_eq!(earnings.status, StatusCode::OK, "{:?}", earnings.body);
    earnings.body
}

/// Starts onboarding; returns the sandbox page's address.
async fn start_onboarding(app: &TestApp, token: &str) -> String {
    let started = app.post("/api/me/payouts/onboarding", Some(token), json!({})).await;
    assert_eq!(started.status, StatusCode::OK, "{:?}", started.body);
    assert_eq!(started.body["ready"], false);
    started.body["url"].as_str().expect("an onboarding page").to_owned()
}

/// Submits the sandbox onboarding form; returns the status and where it redirected.
async fn submit_bank_details(app: &TestApp, url: &str, bsb: &str) -> (StatusCode, Option<String>, String) {
    let form = [("action", "save"), ("account_name", "Sam Tasker"), ("bsb", bsb), ("account_number", "000123456")];
    let response = app.client.post(url).form(&form).send().await.unwrap();
    let location = response.headers().get(header::LOCATION).map(|value| value.to_str().unwrap().to_owned());
    (response.status(), location, response.text().await.unwrap())
}

async fn release(app: &TestApp, assigned: &Assigned) {
    let requested =
        app.post(&format!("/api/tasks/{}/request-payment", assigned.task), Some(&assigned.tasker), json!({})).await;
    assert_eq!(requested.status, StatusCode::OK, "{:?}", requested.body);
    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&assigned.poster), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
}

async fn a_tasker_sets_up_payouts_in_the_sandbox_and_earnings_follow_the_payment_to_paid_out(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let tasker = tasker(&app, "tasker@example.com").await;
    assert_eq!(payout_status(&app, &tasker).await, "none");

    let url = start_onboarding(&app, &tasker).await;
    assert!(url.starts_with(&app.url("/sandbox/payouts/acct_sandbox_")), "{url}");
    assert_eq!(payout_status(&app, &tasker).await, "pending");
    let page = app.client.get(&url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("Set up payouts"));
    let (status, _, body) = submit_bank_details(&app, &url, "12").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body.contains("Your BSB must have 6 digits."), "{body}");
    assert_eq!(payout_status(&app, &tasker).await, "pending", "bad details change nothing");
    let (status, location, _) = submit_bank_details(&app, &url, "000-000").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location.as_deref(), Some(app.url("/earnings?payouts=done").as_str()));
    assert_eq!(payout_status(&app, &tasker).await, "ready");
    let again = app.post("/api/me/payouts/onboarding", Some(&tasker), json!({})).await;
    assert_eq!((again.body["ready"].clone(), again.body["url"].clone()), (json!(true), Value::Null));

    let assigned = assign(&app, &poster, &tasker, 10_000).await;
    let held = earnings(&app, &tasker).await;
    assert_eq!(held["payout_account"], "ready");
    assert_eq!(held["items"][0]["state"], "held");
    assert_eq!(held["totals"]["held_cents"], 9_000);
    let requested = app.post(&format!("/api/tasks/{}/request-payment", assigned.task), Some(&tasker), json!({})).await;
    assert_eq!(requested.status, StatusCode::OK, "{:?}", requested.body);
    let awaiting = earnings(&app, &tasker).await;
    assert_eq!(awaiting["items"][0]["state"], "awaiting_release");
    assert_eq!(
        awaiting["totals"],
        json!({ "held_cents": 0, "awaiting_release_cents": 9_000, "released_cents": 0,
                                            "paid_out_cents": 0, "fees_cents": 0 })
    );
    let released = app.post(&format!("/api/tasks/{}/release", assigned.task), Some(&poster), json!({})).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);

    let paid = earnings(&app, &tasker).await;
    let [line] = paid["items"].as_array().unwrap().clone().try_into().unwrap();
    assert_eq!(line["task_id"], assigned.task.as_str());
    assert_eq!((line["state"].as_str(), line["amount_cents"].as_i64()), (Some("paid_out"), Some(10_000)));
    assert_eq!((line["fee_cents"].as_i64(), line["payout_cents"].as_i64()), (Some(1_000), Some(9_000)));
    assert!(line["paid_out_at"].is_string(), "{line}");
    assert_eq!(
        paid["totals"],
        json!({ "held_cents": 0, "awaiting_release_cents": 0, "released_cents": 0,
                                       "paid_out_cents": 9_000, "fees_cents": 1_000 })
    );

    let receipts = app.get("/api/me/payments", Some(&poster)).await;
    assert_eq!(receipts.status, StatusCode::OK);
    let [receipt] = receipts.body["items"].as_array().unwrap().clone().try_into().unwrap();
    assert_eq!(
        (receipt["task_id"].as_str(), receipt["status"].as_str()),
        (Some(assigned.task.as_str()), Some("released"))
    );
    assert_eq!((receipt["amount_cents"].as_i64(), receipt["fee_cents"].as_i64()), (Some(10_000), Some(1_000)));
    assert_eq!(receipt["refunded_cents"], 0);
    assert!(receipt["paid_at"].is_string() && receipt["released_at"].is_string(), "{receipt}");
    app
}

async fn a_transfer_refused_for_want_of_payout_setup_waits_and_goes_out_once_setup_is_done(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let tasker = tasker(&app, "late-setup@example.com").await;
    // As Stripe does for a transfer without a destination account.
    faults(&app).inject(Call::Transfer, Fault::Refused);
    let assigned = assign(&app, &poster, &tasker, 20_000).await;
    release(&app, &assigned).await;
    assert_eq!(
        kept_payment(&app, &assigned.task).await.status,
        PaymentStatus::Released,
        "release does not wait for the setup"
    );

    let waiting = earnings(&app, &tasker).await;
    assert_eq!(waiting["payout_account"], "none");
    assert_eq!(waiting["items"][0]["state"], "waiting_for_payout_setup");
    assert_eq!(waiting["totals"]["released_cents"], 18_000);
    assert_eq!(waiting["totals"]["paid_out_cents"], 0);

    faults(&app).clear();
    let url = start_onboarding(&app, &tasker).await;
    assert_eq!(earnings(&app, &tasker).await["items"][0]["state"], "waiting_for_payout_setup");
    let (status, _, _) = submit_bank_details(&app, &url, "000000").await;
    assert_eq!(status, StatusCode::SEE_OTHER);

    let payment = kept_payment(&app, &assigned.task).await;
    let [call] = calls_of(&app, payment.id).await.try_into().unwrap();
    assert_eq!(call.status, ProviderCallStatus::Done, "finishing the setup sent the waiting transfer at once");
    assert!(payment.transfer_ref.is_some());
    let paid = earnings(&app, &tasker).await;
    assert_eq!(paid["items"][0]["state"], "paid_out");
    assert_eq!(paid["totals"]["paid_out_cents"], 18_000);
    app
}

/// A transfer the provider refused until it was parked (the tasker took days to set up payouts)
/// goes out too once the setup is done, with a fresh count of attempts.
async fn a_parked_transfer_goes_out_once_payout_setup_is_done(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let tasker = tasker(&app, "very-late-setup@example.com").await;
    faults(&app).inject(Call::Transfer, Fault::Refused);
    let assigned = assign(&app, &poster, &tasker, 20_000).await;
    release(&app, &assigned).await;
    let payment = kept_payment(&app, &assigned.task).await;
    let mut at = Timestamp::now();
    for _ in 1..calls::MAX_ATTEMPTS {
        at = at.plus(std::time::Duration::from_secs(6 * 3600 + 1));
        sweep::sweep(&app.server.state, at).await.unwrap();
    }
    let [call] = calls_of(&app, payment.id).await.try_into().unwrap();
    assert_eq!((call.status, call.attempts), (ProviderCallStatus::Parked, calls::MAX_ATTEMPTS));

    // The setup is done while the provider is down for one more call: the transfer is tried at
    // once and, failing, waits for its first retry as a new call would, not parked again.
    faults(&app).clear();
    faults(&app).inject(Call::Transfer, Fault::Unavailable(1));
    let url = start_onboarding(&app, &tasker).await;
    let (status, _, _) = submit_bank_details(&app, &url, "000000").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let [call] = calls_of(&app, payment.id).await.try_into().unwrap();
    assert_eq!((call.status, call.attempts), (ProviderCallStatus::Pending, 1), "tried at once, counted afresh");
    sweep::sweep(&app.server.state, Timestamp::now().plus(calls::retry_delay(1))).await.unwrap();
    let [call] = calls_of(&app, payment.id).await.try_into().unwrap();
    assert_eq!((call.status, call.attempts), (ProviderCallStatus::Done, 2), "sent on its first retry");
    assert_eq!(kept_payment(&app, &assigned.task).await.transfer_ref, call.provider_ref);
    assert_eq!(earnings(&app, &tasker).await["items"][0]["state"], "paid_out");
    app
}

fn without_the_background_sweep(config: &mut domain::config::Config) {
    config.payments_sweep_secs = 0;
}

async fn each_person_sees_only_their_own_money(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let stranger = tasker(&app, "stranger@example.com").await;
    let tasker = tasker(&app, "tasker@example.com").await;
    assign(&app, &poster, &tasker, 7_500).await;

    assert_eq!(earnings(&app, &stranger).await["items"], json!([]));
    assert_eq!(earnings(&app, &poster).await["items"], json!([]), "paying is not earning");
    assert_eq!(app.get("/api/me/payments", Some(&tasker)).await.body["items"], json!([]), "earning is not paying");
    let receipts = app.get("/api/me/payments", Some(&poster)).await.body;
    assert_eq!(receipts["items"][0]["status"], "held");
    for path in ["/api/me/earnings", "/api/me/payments", "/api/me/payout-account"] {
        let anonymous = app.get(path, None).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED, "{path}");
        assert_eq!(anonymous.error_code(), "unauthorized");
    }
    let unknown = app.client.get(app.url("/sandbox/payouts/acct_sandbox_nothing")).send().await.unwrap();
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    app
}

/// Follows `next_cursor` from `path` (which holds `?limit=`) to the end; returns every page's body.
async fn every_page(app: &TestApp, token: &str, path: &str) -> Vec<Value> {
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let url = match &cursor {
            None => path.to_owned(),
            Some(cursor) => format!("{path}&cursor={cursor}"),
        };
        let page = app.get(&url, Some(token)).await;
        assert_eq!(page.status, StatusCode::OK, "{url}: {:?}", page.body);
        cursor = page.body["next_cursor"].as_str().map(str::to_owned);
        assert_eq!(page.body["has_more"], cursor.is_some(), "{:?}", page.body);
        pages.push(page.body);
        if cursor.is_none() {
            return pages;
        }
    }
}

async fn long_histories_come_a_page_at_a_time_and_the_totals_count_every_payment(app: TestApp) -> TestApp {
    let poster = poster(&app, "poster@example.com").await;
    let tasker = tasker(&app, "tasker@example.com").await;
    let mut tasks = Vec::new();
    for amount_cents in [5_000, 6_000, 7_000] {
        tasks.push(assign(&app, &poster, &tasker, amount_cents).await.task);
    }
    let newest_first: Vec<Value> = tasks.iter().rev().map(|task| json!(task)).collect();

    let pages = every_page(&app, &tasker, "/api/me/earnings?limit=2").await;
    assert_eq!(pages.iter().map(|page| page["items"].as_array().unwrap().len()).collect::<Vec<_>>(), [2, 1]);
    for page in &pages {
        // Every page totals every payment, not just its own lines.
        assert_eq!(page["totals"]["held_cents"], 16_200, "{page:?}");
    }
    let lines: Vec<Value> = pages.iter().flat_map(|page| page["items"].as_array().unwrap().clone()).collect();
    assert_eq!(lines.iter().map(|line| line["task_id"].clone()).collect::<Vec<_>>(), newest_first);

    let pages = every_page(&app, &poster, "/api/me/payments?limit=2").await;
    assert_eq!(pages.iter().map(|page| page["items"].as_array().unwrap().len()).collect::<Vec<_>>(), [2, 1]);
    let receipts: Vec<Value> = pages.iter().flat_map(|page| page["items"].as_array().unwrap().clone()).collect();
    assert_eq!(receipts.iter().map(|receipt| receipt["task_id"].clone()).collect::<Vec<_>>(), newest_first);

    // Without a limit, one page of up to 50 holds all three.
    assert_eq!(earnings(&app, &tasker).await["items"].as_array().unwrap().len(), 3);
    for path in ["/api/me/earnings", "/api/me/payments"] {
        let junk = app.get(&format!("{path}?cursor=not-a-cursor"), Some(&tasker)).await;
        assert_eq!(junk.status, StatusCode::BAD_REQUEST, "{path}: {:?}", junk.body);
        let too_many = app.get(&format!("{path}?limit=500"), Some(&tasker)).await;
        assert_eq!(too_many.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}: {:?}", too_many.body);
    }
    app
}

on_both_backends!(
    a_tasker_sets_up_payouts_in_the_sandbox_and_earnings_follow_the_payment_to_paid_out,
    a_transfer_refused_for_want_of_payout_setup_waits_and_goes_out_once_setup_is_done,
    each_person_sees_only_their_own_money,
    long_histories_come_a_page_at_a_time_and_the_totals_count_every_payment,
    a_parked_transfer_goes_out_once_payout_setup_is_done: without_the_background_sweep,
);
