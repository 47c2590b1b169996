//! The sandbox provider's hosted checkout page, on both backends.

use domain::payments::{CheckoutRequest, CheckoutStatus};
use model::{payments::fees, states::PaymentStatus};

use crate::common;

use std::{collections::BTreeMap, time::Duration};

use common::TestApp;
use reqwest::{StatusCode, header};
use uuid::Uuid;

fn request(app: &TestApp, expires_at: i64) -> CheckoutRequest {
    let task_id = Uuid::now_v7();
    let offer_id = Uuid::now_v7();
    CheckoutRequest {
        payment_id: Uuid::now_v7(),
        description: "Assemble <two> wardrobes".into(),
        amount_cents: 12_345,
        fee_cents: fees::fee_cents(12_345),
        currency: "aud".into(),
        success_url: app
            .url(&format!("/payment-success?session_id={{CHECKOUT_SESSION_ID}}&task_id={task_id}&offer_id={offer_id}")),
        cancel_url: app.url(&format!("/task/{task_id}")),
        transfer_group: format!("task_{task_id}"),
        metadata: BTreeMap::new(),
        expires_at,
    }
}

fn in_thirty_minutes() -> i64 {
    store::db::Timestamp::now().plus(std::time::Duration::from_secs(1800)).0
}

async fn submit(app: &TestApp, url: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    app.client.post(url).form(fields).send().await.unwrap()
}

async fn checkout_page_shows_task_amount_and_fee_and_pay_redirects_to_success(app: TestApp) -> TestApp {
    let payments = app.server.state.payments.current();
    assert_eq!(payments.name(), "sandbox");
    let checkout = request(&app, in_thirty_minutes());
    let session = payments.create_checkout(&checkout).await.unwrap();
    assert_eq!(session.url, app.url(&format!("/sandbox/checkout/{}", session.id)));
    // A retried create (same payment id) is the same session.
    assert_eq!(payments.create_checkout(&checkout).await.unwrap(), session);

    let page = app.client.get(&session.url).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(html.contains("Assemble &lt;two&gt; wardrobes"), "the title is escaped");
    assert!(html.contains("$123.45 AUD"));
    assert!(html.contains("$12.35 AUD"), "10% of 123.45 rounded half up");
    assert!(html.contains(r#"value="pay""#) && html.contains(r#"value="cancel""#));
    assert_eq!(payments.checkout_status(&session.id).await.unwrap(), CheckoutStatus::Open);

    let declined = submit(&app, &session.url, &[("action", "pay"), ("card_number", "4000 0000 0000 0002")]).await;
    assert_eq!(declined.status(), StatusCode::PAYMENT_REQUIRED);
    assert!(declined.text().await.unwrap().contains("Your card was declined."));
    assert_eq!(payments.checkout_status(&session.id).await.unwrap(), CheckoutStatus::Open);

    let paid = submit(&app, &session.url, &[("action", "pay"), ("card_number", "4242 4242 4242 4242")]).await;
    assert_eq!(paid.status(), StatusCode::SEE_OTHER);
    let location = paid.headers()[header::LOCATION].to_str().unwrap().to_owned();
    assert!(
        location.starts_with(&app.url(&format!("/payment-success?session_id={}&task_id=", session.id))),
        "{location}"
    );
    let CheckoutStatus::Paid { charge_ref: Some(charge), .. } = payments.checkout_status(&session.id).await.unwrap()
    else {
        panic!("paid with a charge")
    };
    assert!(charge.starts_with("ch_sandbox_"));

    // Paying again (double click) lands on the same success page and charges nothing new.
    let again = submit(&app, &session.url, &[("action", "pay"), ("card_number", "4242424242424242")]).await;
    assert_eq!(again.headers()[header::LOCATION].to_str().unwrap(), location);
    assert_eq!(
        payments.checkout_status(&session.id).await.unwrap(),
        CheckoutStatus::Paid { charge_ref: Some(charge), payment_intent: None }
    );
    // Expiring a paid session leaves it paid.
    assert!(matches!(payments.expire_checkout(&session.id).await.unwrap(), CheckoutStatus::Paid { .. }));
    app
}

async fn cancel_returns_to_the_task_and_expired_sessions_cannot_be_paid(app: TestApp) -> TestApp {
    let payments = app.server.state.payments.current();
    let checkout = request(&app, in_thirty_minutes());
    let session = payments.create_checkout(&checkout).await.unwrap();
    let cancelled = submit(&app, &session.url, &[("action", "cancel")]).await;
    assert_eq!(cancelled.status(), StatusCode::SEE_OTHER);
    assert_eq!(cancelled.headers()[header::LOCATION].to_str().unwrap(), checkout.cancel_url);

    assert_eq!(payments.expire_checkout(&session.id).await.unwrap(), CheckoutStatus::Expired);
    let late = submit(&app, &session.url, &[("action", "pay"), ("card_number", "4242424242424242")]).await;
    assert_eq!(late.status(), StatusCode::GONE);
    assert_eq!(payments.checkout_status(&session.id).await.unwrap(), CheckoutStatus::Expired);

    // A session past its expiry time is expired even before anyone expires it.
    let stale = payments.create_checkout(&request(&app, store::db::Timestamp::now().0 - 1)).await.unwrap();
    assert_eq!(payments.checkout_status(&stale.id).await.unwrap(), CheckoutStatus::Expired);
    assert_eq!(
        app.client.get(app.url("/sandbox/checkout/cs_sandbox_nope")).send().await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
    app
}

/// A bank debit on the sandbox page: the payment is processing until the
/// debit settles (found by the sweep's re-check, as the sandbox sends no
/// webhook), or fails with the failing test account and reopens the task.
async fn a_bank_debit_processes_then_settles_or_fails(app: TestApp) -> TestApp {
    use common::{
        escrow::{assert_ledger_audits, checkout, payments_of, task_status, verify},
        market::{id, make_offer, post_task, poster, tasker},
    };
    use domain::payments::{
        sandbox::{DEBIT_ACCOUNT_FAILS, DEBIT_ACCOUNT_SETTLES},
        sweep,
    };
    use serde_json::json;
    use std::time::Duration;
    use store::db::Timestamp;

    let poster = poster(&app, "debit-poster@example.com").await;
    let tasker = tasker(&app, "debit-tasker@example.com").await;
    for (account, settles) in [(DEBIT_ACCOUNT_SETTLES, true), (DEBIT_ACCOUNT_FAILS, false)] {
        let task = id(&post_task(&app, &poster, json!({})).await);
        let offer = id(&make_offer(&app, &tasker, &task, 7_500).await);
        let (session, url) = checkout(&app, &poster, &task, &offer).await;
        let wrong = submit(&app, &url, &[("action", "debit"), ("account_number", "123")]).await;
        assert_eq!(wrong.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let submitted = Timestamp::now();
        let paid = submit(&app, &url, &[("action", "debit"), ("account_number", account)]).await;
        let answered = Timestamp::now();
        assert_eq!(paid.status(), StatusCode::SEE_OTHER);
        let verified = verify(&app, &poster, &session, &task, &offer).await;
        assert_eq!(verified.body["payment_status"], "processing", "{:?}", verified.body);
        assert_eq!(task_status(&app, &task).await, "pending_payment");
        // The sandbox's bank takes two minutes (the page says so).
        let settles_at: Option<i64> = store::on_pool!(&app.server.state.db, |pool| {
            sqlx::query_scalar("select settles_at from sandbox_sessions where id = $1")
                .bind(&session)
                .fetch_one(pool)
                .await
        })
        .unwrap();
        let two_minutes = Duration::from_secs(120);
        let settles_at = settles_at.expect("a debit settles later");
        assert!(
            (submitted.plus(two_minutes).0..=answered.plus(two_minutes).0).contains(&settles_at),
            "settles at {settles_at}, paid between {} and {}",
            submitted.0,
            answered.0
        );

        // The bank's days pass in an instant: the debit is due now.
        store::on_pool!(&app.server.state.db, |pool| {
            sqlx::query("update sandbox_sessions set settles_at = 0 where id = $1")
                .bind(&session)
                .execute(pool)
                .await
                .map(|_| ())
        })
        .unwrap();
        // First asked about again two minutes after it went processing, not before.
        let went_processing = Timestamp::now();
        assert_eq!(checks_at(&app, went_processing.plus(Duration::from_secs(110))).await, 0, "too soon");
        let report =
            sweep::sweep(&app.server.state, went_processing.plus(Duration::from_secs(121))).await.expect("sweep");
        assert_eq!(report.checkouts_checked, 1, "{report:?}");
        let (payment_status, task_after) =
            if settles { (PaymentStatus::Held, "assigned") } else { (PaymentStatus::Failed, "open") };
        assert_eq!(payments_of(&app, &task).await[0].status, payment_status);
        assert_eq!(task_status(&app, &task).await, task_after);
    }
    assert_ledger_audits(&app).await;
    app
}

fn without_the_background_sweep(config: &mut domain::config::Config) {
    config.payments_sweep_secs = 0;
}

/// How many checkouts a sweep as of `at` asked the provider about.
async fn checks_at(app: &TestApp, at: store::db::Timestamp) -> usize {
    domain::payments::sweep::sweep(&app.server.state, at).await.expect("sweep").checkouts_checked
}

/// A processing payment is asked about again while it waits for its bank: never before its next
/// check, which is at least two minutes away and, as a failing call's retry, doubles with the
/// checks made.
async fn a_processing_payment_is_checked_again_after_a_growing_wait(app: TestApp) -> TestApp {
    use common::{
        escrow::{checkout, payments_of, task_status, verify},
        market::{id, make_offer, post_task, poster, tasker},
    };
    use domain::payments::sandbox::DEBIT_ACCOUNT_SETTLES;
    use serde_json::json;
    use store::db::Timestamp;

    let poster = poster(&app, "recheck-poster@example.com").await;
    let tasker = tasker(&app, "recheck-tasker@example.com").await;
    let task = id(&post_task(&app, &poster, json!({})).await);
    let offer = id(&make_offer(&app, &tasker, &task, 7_500).await);
    let (session, url) = checkout(&app, &poster, &task, &offer).await;
    let debit = submit(&app, &url, &[("action", "debit"), ("account_number", DEBIT_ACCOUNT_SETTLES)]).await;
    assert_eq!(debit.status(), StatusCode::SEE_OTHER);
    // Its bank takes a day: every check below finds it still processing.
    let tomorrow = Timestamp::now().plus(Duration::from_secs(24 * 3600));
    store::on_pool!(&app.server.state.db, |pool| {
        sqlx::query("update sandbox_sessions set settles_at = $2 where id = $1")
            .bind(&session)
            .bind(tomorrow)
            .execute(pool)
            .await
            .map(|done| done.rows_affected())
    })
    .unwrap();
    let verified = verify(&app, &poster, &session, &task, &offer).await;
    assert_eq!(verified.body["payment_status"], "processing", "{:?}", verified.body);

    let minutes = |n: u64| Duration::from_secs(n * 60);
    let first = payments_of(&app, &task).await[0].next_check_at.expect("a check is due");
    assert_eq!(checks_at(&app, first).await, 1);
    assert_eq!(checks_at(&app, first).await, 0, "not again before its next check");
    let second = first.plus(minutes(2));
    assert_eq!(checks_at(&app, second).await, 1, "two minutes after the first");
    let third = second.plus(minutes(2));
    assert_eq!(checks_at(&app, third).await, 1, "two minutes after the second");
    assert_eq!(checks_at(&app, third.plus(minutes(2))).await, 0, "after the third the wait is four minutes");
    assert_eq!(checks_at(&app, third.plus(minutes(4))).await, 1);
    let payment = &payments_of(&app, &task).await[0];
    assert_eq!((payment.status, payment.check_attempts), (PaymentStatus::Processing, 4));
    assert_eq!(task_status(&app, &task).await, "pending_payment");
    app
}

/// Every checkout session the provider opens (the task's, a price increase's, a tip's) stays
/// payable a minute past our own 30-minute expiry of its payment, so ours acts first (and Stripe
/// wants at least 30 minutes).
async fn every_provider_session_outlives_its_checkout_by_a_minute(app: TestApp) -> TestApp {
    use common::escrow::{assigned_task, payments_of};
    use serde_json::json;
    use store::sandbox_sessions;

    let assigned = assigned_task(&app, 10_000).await;
    let asked = app
        .post(
            &format!("/api/tasks/{}/price-increases", assigned.task),
            Some(&assigned.tasker),
            json!({ "amount_cents": 2_000, "reason": "Two more wardrobes" }),
        )
        .await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    let approve = format!("/api/price-increases/{}/approve", asked.body["id"].as_str().unwrap());
    let approved = app.post(&approve, Some(&assigned.poster), json!({})).await;
    assert_eq!(approved.status, StatusCode::OK, "{:?}", approved.body);
    let release = format!("/api/tasks/{}/release", assigned.task);
    let released = app.post(&release, Some(&assigned.poster), json!({ "tip_cents": 1_000 })).await;
    assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
    assert!(released.body["tip"]["url"].is_string(), "{:?}", released.body);

    let mut lives = Vec::new();
    for payment in payments_of(&app, &assigned.task).await {
        let session = sandbox_sessions::session(&app.server.state.db, &payment.session_id).await.unwrap().unwrap();
        lives.push((payment.purpose.to_string(), session.expires_at.0 - payment.expires_at.0));
    }
    let a_minute = |purpose: &str| (purpose.to_owned(), 60_000_i64);
    assert_eq!(lives, [a_minute("task"), a_minute("increase"), a_minute("tip")]);
    app
}

on_both_backends!(
    checkout_page_shows_task_amount_and_fee_and_pay_redirects_to_success,
    cancel_returns_to_the_task_and_expired_sessions_cannot_be_paid,
    a_bank_debit_processes_then_settles_or_fails,
    a_processing_payment_is_checked_again_after_a_growing_wait: without_the_background_sweep,
    every_provider_session_outlives_its_checkout_by_a_minute: without_the_background_sweep,
);
