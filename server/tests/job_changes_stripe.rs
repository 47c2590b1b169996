//! Price increases and tips through the whole server against the spec-checked
//! fake Stripe, on both backends: every Checkout Session, Transfer and Refund
//! the server asks Stripe for carries the right amount, charge, destination and
//! idempotency key, and conforms to Stripe's OpenAPI description
//! (`common/stripe_fake.rs`). The increase is settled by Stripe's webhook, the
//! task's own payment by the poster's return (verify), the tip by the webhook
//! after the release; an increase paid by direct debit joins the escrow only
//! when Stripe says the debit cleared. The ledger audit runs after each scenario.

use domain::config::{Config, Secret};
use store::{
    db::Timestamp,
    payments::{self, PaymentRow},
};

use crate::common::{self, stripe_fake, stripe_spec};

use std::collections::BTreeMap;

use common::{
    TestApp,
    escrow::{assert_ledger_audits, payments_of, send_webhook, uuid},
    market::{id, make_offer, post_task, poster, tasker},
};
use reqwest::StatusCode;
use serde_json::{Value, json};
use stripe_fake::{FakeStripe, checkout_session, event, payment_intent, refund, transfer};
use wiremock::{
    Mock, Request,
    matchers::{method, path},
};

const WEBHOOK_SECRET: &str = "whsec_job_changes_test";
const OPERATOR: &str = "stripe-changes-operator@example.com";

fn configure(config: &mut Config, fake: &FakeStripe) {
    config.payments_sweep_secs = 0;
    config.stripe_secret_key = Some(Secret::new("sk_test_fake"));
    config.stripe_api_base = fake.uri();
    config.stripe_webhook_secret = Some(Secret::new(WEBHOOK_SECRET));
    config.admin_emails = vec![OPERATOR.into()];
}

fn form(request: &Request) -> BTreeMap<String, String> {
    url::form_urlencoded::parse(&request.body).into_owned().collect()
}

fn idempotency_key(request: &Request) -> String {
    request.headers.get("idempotency-key").map(|value| value.to_str().unwrap().to_owned()).unwrap_or_default()
}

/// One checkout Stripe will be asked for: its session, and the intent and charge it is paid by.
/// A `late` one is paid by a method that settles days later (BECS Direct Debit): complete but
/// still processing until [`StripeCheckout::settle`].
struct StripeCheckout {
    session: &'static str,
    intent: &'static str,
    charge: &'static str,
    late: bool,
}

impl StripeCheckout {
    fn paid(session: &'static str, intent: &'static str, charge: &'static str) -> Self {
        Self { session, intent, charge, late: false }
    }

    /// The fake answers the creation whose form `fits` with this session (open), and answers
    /// every later look at the session as paid by its intent and charge (or processing, if late).
    async fn mount(
        &self,
        fake: &FakeStripe,
        amount_cents: i64,
        fits: impl Fn(&BTreeMap<String, String>) -> bool + Send + Sync + 'static,
    ) {
        let open = with_amount(checkout_session(self.session, "open", "unpaid", Value::Null), amount_cents);
        Mock::given(method("POST"))
            .and(path("/v1/checkout/sessions"))
            .and(move |request: &Request| fits(&form(request)))
            .respond_with(fake.answer(200, open))
            .mount(&fake.server)
            .await;
        let now = if self.late {
            let intent = payment_intent(self.intent, "processing", None);
            with_amount(checkout_session(self.session, "complete", "unpaid", intent), amount_cents)
        } else {
            self.paid_session(amount_cents)
        };
        fake.on("GET", &format!("/v1/checkout/sessions/{}", self.session), 200, now).mount(&fake.server).await;
    }

    /// A late payment settled: from now on the fake answers the session as paid.
    async fn settle(&self, fake: &FakeStripe, amount_cents: i64) {
        let paid = self.paid_session(amount_cents);
        fake.on("GET", &format!("/v1/checkout/sessions/{}", self.session), 200, paid)
            .with_priority(1)
            .mount(&fake.server)
            .await;
    }

    /// A late payment the bank refused: from now on the fake answers the session as failed.
    async fn fail(&self, fake: &FakeStripe, amount_cents: i64) {
        let intent = payment_intent(self.intent, "requires_payment_method", None);
        let failed = with_amount(checkout_session(self.session, "complete", "unpaid", intent), amount_cents);
        fake.on("GET", &format!("/v1/checkout/sessions/{}", self.session), 200, failed)
            .with_priority(1)
            .mount(&fake.server)
            .await;
    }

    fn paid_session(&self, amount_cents: i64) -> Value {
        let mut intent = payment_intent(self.intent, "succeeded", Some(self.charge));
        intent["amount"] = json!(amount_cents);
        intent["amount_received"] = json!(amount_cents);
        with_amount(checkout_session(self.session, "complete", "paid", intent), amount_cents)
    }

    /// Stripe's `checkout.session.completed` for this session, checked against Stripe's spec.
    fn completed_event(&self, event_id: &str) -> Value {
        let payment_status = if self.late { "unpaid" } else { "paid" };
        self.event(event_id, "checkout.session.completed", payment_status)
    }

    fn event(&self, event_id: &str, kind: &str, payment_status: &str) -> Value {
        let session = checkout_session(self.session, "complete", payment_status, json!(self.intent));
        let event = event(event_id, kind, session);
        assert_eq!(stripe_spec::check_event(&event), Ok(()), "the event as Stripe's spec describes it");
        event
    }
}

fn with_amount(mut session: Value, amount_cents: i64) -> Value {
    session["amount_subtotal"] = json!(amount_cents);
    session["amount_total"] = json!(amount_cents);
    session
}

/// A task between a new poster and a new tasker (whose Connect account `account` can receive
/// transfers), accepted at `amount_cents` and paid through Stripe Checkout.
struct StripeTask {
    poster: String,
    tasker: String,
    task: String,
    offer: String,
}

async fn assigned_through_stripe(
    app: &TestApp,
    fake: &FakeStripe,
    name: &str,
    account: &str,
    amount_cents: i64,
    checkout: &StripeCheckout,
) -> StripeTask {
    let poster = poster(app, &format!("{name}-poster@example.com")).await;
    let tasker = tasker(app, &format!("{name}-tasker@example.com")).await;
    let tasker_id = uuid(app.get("/api/me", Some(&tasker)).await.body["user"]["id"].as_str().unwrap());
    payments::save_payout_account(&app.server.state.db, tasker_id, "stripe", account, true, Timestamp::now())
        .await
        .unwrap();
    let task = id(&post_task(app, &poster, json!({ "title": format!("Build the {name} fence") })).await);
    let offer = id(&make_offer(app, &tasker, &task, amount_cents).await);
    let for_offer = offer.clone();
    checkout
        .mount(fake, amount_cents, move |sent| {
            sent.get("metadata[offer_id]") == Some(&for_offer)
                && !sent.contains_key("metadata[price_increase_id]")
                && !sent.contains_key("metadata[tip]")
        })
        .await;
    let body = json!({ "task_id": task, "offer_id": offer });
    let started = app.post("/api/payments/checkout-session", Some(&poster), body).await;
    assert_eq!(started.status, StatusCode::OK, "{:?}", started.body);
    let body = json!({ "session_id": checkout.session, "task_id": task, "offer_id": offer });
    let verified = app.post("/api/payments/verify", Some(&poster), body).await;
    assert_eq!(verified.body["payment_status"], "held", "{:?}", verified.body);
    StripeTask { poster, tasker, task, offer }
}

/// The tasker asks for `amount_cents` more and the poster approves: the checkout's url.
async fn approved_increase(
    app: &TestApp,
    fake: &FakeStripe,
    task: &StripeTask,
    amount_cents: i64,
    checkout: &StripeCheckout,
) -> String {
    let asked = app
        .post(
            &format!("/api/tasks/{}/price-increases", task.task),
            Some(&task.tasker),
            json!({ "amount_cents": amount_cents, "reason": "The fence is 10 metres longer than described" }),
        )
        .await;
    assert_eq!(asked.status, StatusCode::CREATED, "{:?}", asked.body);
    let increase = asked.body["id"].as_str().unwrap().to_owned();
    let for_increase = increase.clone();
    checkout
        .mount(fake, amount_cents, move |sent| sent.get("metadata[price_increase_id]") == Some(&for_increase))
        .await;
    let approved = app.post(&format!("/api/price-increases/{increase}/approve"), Some(&task.poster), json!({})).await;
    assert_eq!(approved.status, StatusCode::OK, "{:?}", approved.body);
    assert_eq!(approved.body["session_id"], checkout.session);
    assert_eq!(approved.body["url"], format!("https://checkout.stripe.test/c/pay/{}", checkout.session));
    increase
}

/// The task's payments as `(purpose, status, amount, fee, refunded)`, oldest first.
async fn escrow_of(app: &TestApp, task: &str) -> Vec<(String, String, i64, i64, i64)> {
    payments_of(app, task)
        .await
        .into_iter()
        .map(|p: PaymentRow| {
            (p.purpose.to_string(), p.status.to_string(), p.amount_cents, p.fee_cents, p.refunded_cents)
        })
        .collect()
}

fn row(purpose: &str, status: &str, amount: i64, fee: i64, refunded: i64) -> (String, String, i64, i64, i64) {
    (purpose.to_owned(), status.to_owned(), amount, fee, refunded)
}

/// The id of the task's payment for `purpose` (`task`, `increase`, `tip`).
async fn payment_id(app: &TestApp, task: &str, purpose: &str) -> String {
    let all = payments_of(app, task).await;
    all.into_iter()
        .find(|p| p.purpose.as_str() == purpose)
        .map(|p| p.id.to_string())
        .expect("a payment for the purpose")
}

/// The requests Stripe received at `route` (POSTs), oldest first.
async fn posted(fake: &FakeStripe, route: &str) -> Vec<Request> {
    fake.requests().await.into_iter().filter(|r| r.method.as_str() == "POST" && r.url.path() == route).collect()
}

/// A checkout creation as `[amount, product name, idempotency key]`.
fn checkout_sent(request: &Request) -> [String; 3] {
    let sent = form(request);
    [
        sent["line_items[0][price_data][unit_amount]"].clone(),
        sent["line_items[0][price_data][product_data][name]"].clone(),
        idempotency_key(request),
    ]
}

/// A transfer as `[amount, destination, source charge, idempotency key]`.
fn transfer_sent(request: &Request) -> [String; 4] {
    let sent = form(request);
    [sent["amount"].clone(), sent["destination"].clone(), sent["source_transaction"].clone(), idempotency_key(request)]
}

/// A refund as `[amount, payment intent, idempotency key]`.
fn refund_sent(request: &Request) -> [String; 3] {
    let sent = form(request);
    [sent["amount"].clone(), sent["payment_intent"].clone(), idempotency_key(request)]
}

fn strings<const N: usize>(values: [&str; N]) -> [String; N] {
    values.map(str::to_owned)
}

async fn an_increase_paid_through_stripe_is_released_with_the_fee_and_a_tip_goes_over_in_full(
    backend: common::Backend,
) {
    let fake = FakeStripe::start().await;
    let account = "acct_changes_tasker";
    common::run(
        backend,
        |config| configure(config, &fake),
        |app| async {
            let task_checkout = StripeCheckout::paid("cs_test_task", "pi_task", "ch_task");
            let task = assigned_through_stripe(&app, &fake, "increase", account, 10_000, &task_checkout).await;

            let increase_checkout = StripeCheckout::paid("cs_test_increase", "pi_increase", "ch_increase");
            let increase = approved_increase(&app, &fake, &task, 4_000, &increase_checkout).await;
            // The poster pays on Stripe's page and Stripe says so by webhook (no return to our page).
            let settled = send_webhook(&app, WEBHOOK_SECRET, &increase_checkout.completed_event("evt_increase")).await;
            assert_eq!(settled.body["handled"], true, "{:?}", settled.body);
            let listed = app.get(&format!("/api/tasks/{}/price-increases", task.task), Some(&task.tasker)).await;
            assert_eq!(
                (listed.body["items"][0]["id"].as_str(), listed.body["items"][0]["status"].as_str()),
                (Some(&*increase), Some("paid"))
            );
            assert_eq!(
                escrow_of(&app, &task.task).await,
                [row("task", "held", 10_000, 1_000, 0), row("increase", "held", 4_000, 400, 0)]
            );
            let replay = send_webhook(&app, WEBHOOK_SECRET, &increase_checkout.completed_event("evt_increase")).await;
            assert_eq!(replay.body["handled"], false, "the same event is acted on once");
            assert_ledger_audits(&app).await;

            fake.on("POST", "/v1/transfers", 200, transfer("tr_1", 9_000, account, Some("ch_task")))
                .mount(&fake.server)
                .await;
            let tip_checkout = StripeCheckout::paid("cs_test_tip", "pi_tip", "ch_tip");
            let for_task = task.task.clone();
            tip_checkout
                .mount(&fake, 1_500, move |sent| {
                    sent.get("metadata[task_id]") == Some(&for_task) && sent.get("metadata[tip]").is_some()
                })
                .await;
            let released = app
                .post(&format!("/api/tasks/{}/release", task.task), Some(&task.poster), json!({ "tip_cents": 1_500 }))
                .await;
            assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
            assert_eq!(released.body["tip"]["session_id"], tip_checkout.session);
            let settled = send_webhook(&app, WEBHOOK_SECRET, &tip_checkout.completed_event("evt_tip")).await;
            assert_eq!(settled.body["handled"], true, "{:?}", settled.body);
            assert_eq!(
                escrow_of(&app, &task.task).await,
                [
                    row("task", "released", 10_000, 1_000, 0),
                    row("increase", "released", 4_000, 400, 0),
                    row("tip", "released", 1_500, 0, 0)
                ]
            );

            // What Stripe was asked for, amount by amount.
            let [task_payment, increase_payment, tip_payment] = [
                payment_id(&app, &task.task, "task").await,
                payment_id(&app, &task.task, "increase").await,
                payment_id(&app, &task.task, "tip").await,
            ];
            let checkouts: Vec<_> = posted(&fake, "/v1/checkout/sessions").await.iter().map(checkout_sent).collect();
            assert_eq!(
                checkouts,
                [
                    strings(["10000", "Build the increase fence", &format!("checkout-{task_payment}")]),
                    strings([
                        "4000",
                        "Price increase: Build the increase fence",
                        &format!("checkout-{increase_payment}")
                    ]),
                    strings(["1500", "Tip: Build the increase fence", &format!("checkout-{tip_payment}")]),
                ]
            );
            for request in posted(&fake, "/v1/checkout/sessions").await {
                let sent = form(&request);
                assert_eq!(sent["payment_intent_data[transfer_group]"], format!("task_{}", task.task));
                assert_eq!(sent["metadata[task_id]"], task.task);
                assert_eq!(sent["metadata[offer_id]"], task.offer);
            }
            let mut transfers: Vec<_> = posted(&fake, "/v1/transfers").await.iter().map(transfer_sent).collect();
            transfers.sort();
            assert_eq!(
                transfers,
                [
                    // The tip in full: no service fee.
                    strings(["1500", account, "ch_tip", &format!("transfer-{tip_payment}")]),
                    // The increase less its 10% fee, from the increase's own charge.
                    strings(["3600", account, "ch_increase", &format!("transfer-{increase_payment}")]),
                    strings(["9000", account, "ch_task", &format!("transfer-{task_payment}")]),
                ]
            );
            for request in posted(&fake, "/v1/transfers").await {
                assert_eq!(form(&request)["transfer_group"], format!("task_{}", task.task));
            }
            assert!(posted(&fake, "/v1/refunds").await.is_empty(), "nothing is refunded");

            let earnings = app.get("/api/me/earnings", Some(&task.tasker)).await.body;
            let mut lines: Vec<(String, i64, i64, String)> = earnings["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|line| {
                    (
                        line["purpose"].as_str().unwrap().to_owned(),
                        line["fee_cents"].as_i64().unwrap(),
                        line["payout_cents"].as_i64().unwrap(),
                        line["state"].as_str().unwrap().to_owned(),
                    )
                })
                .collect();
            lines.sort();
            let paid_out = "paid_out".to_owned();
            assert_eq!(
                lines,
                [
                    ("increase".to_owned(), 400, 3_600, paid_out.clone()),
                    ("task".to_owned(), 1_000, 9_000, paid_out.clone()),
                    ("tip".to_owned(), 0, 1_500, paid_out)
                ]
            );
            assert_ledger_audits(&app).await;
            app
        },
    )
    .await;
    fake.assert_requests_conform().await;
}

async fn refunds_after_an_increase_return_the_whole_escrow_through_stripe(backend: common::Backend) {
    let fake = FakeStripe::start().await;
    let account = "acct_disputed_tasker";
    common::run(
        backend,
        |config| configure(config, &fake),
        |app| async {
            fake.on("POST", "/v1/refunds", 200, refund("re_1", 10_000, "pi_cancel_task")).mount(&fake.server).await;
            fake.on("POST", "/v1/transfers", 200, transfer("tr_1", 1_800, account, Some("ch_dispute_increase")))
                .mount(&fake.server)
                .await;

            // A cancellation both parties agree to refunds the task's payment and the increase in full.
            let checkout = StripeCheckout::paid("cs_cancel_task", "pi_cancel_task", "ch_cancel_task");
            let cancelled =
                assigned_through_stripe(&app, &fake, "cancelled", "acct_cancelled_tasker", 10_000, &checkout).await;
            let increase = StripeCheckout::paid("cs_cancel_increase", "pi_cancel_increase", "ch_cancel_increase");
            approved_increase(&app, &fake, &cancelled, 3_000, &increase).await;
            let body =
                json!({ "session_id": increase.session, "task_id": cancelled.task, "offer_id": cancelled.offer });
            let verified = app.post("/api/payments/verify", Some(&cancelled.poster), body).await;
            assert_eq!(verified.body["success"], true, "{:?}", verified.body);
            let path = format!("/api/tasks/{}/cancellation", cancelled.task);
            let body = json!({ "reason": "Double-booked", "reason_code": "tasker_unavailable" });
            assert_eq!(app.post(&path, Some(&cancelled.tasker), body).await.status, StatusCode::CREATED);
            let accepted = app.post(&format!("{path}/accept"), Some(&cancelled.poster), json!({})).await;
            assert_eq!(accepted.status, StatusCode::OK, "{:?}", accepted.body);
            assert_eq!(
                escrow_of(&app, &cancelled.task).await,
                [row("task", "refunded", 10_000, 1_000, 10_000), row("increase", "refunded", 3_000, 300, 3_000)]
            );
            let [task_payment, increase_payment] =
                [payment_id(&app, &cancelled.task, "task").await, payment_id(&app, &cancelled.task, "increase").await];
            let mut refunds: Vec<_> = posted(&fake, "/v1/refunds").await.iter().map(refund_sent).collect();
            refunds.sort();
            assert_eq!(
                refunds,
                [
                    strings(["10000", "pi_cancel_task", &format!("refund-{task_payment}")]),
                    strings(["3000", "pi_cancel_increase", &format!("refund-{increase_payment}")]),
                ]
            );
            assert!(posted(&fake, "/v1/transfers").await.is_empty(), "a cancellation pays the tasker nothing");
            assert_ledger_audits(&app).await;

            // An operator splits a disputed escrow of 10,000 + 4,000: 12,000 back to the poster
            // (the task's payment and half the increase), the rest of the increase, less its fee, to the tasker.
            let operator = poster(&app, OPERATOR).await;
            let checkout = StripeCheckout::paid("cs_dispute_task", "pi_dispute_task", "ch_dispute_task");
            let disputed = assigned_through_stripe(&app, &fake, "disputed", account, 10_000, &checkout).await;
            let increase = StripeCheckout::paid("cs_dispute_increase", "pi_dispute_increase", "ch_dispute_increase");
            approved_increase(&app, &fake, &disputed, 4_000, &increase).await;
            let settled = send_webhook(&app, WEBHOOK_SECRET, &increase.completed_event("evt_dispute_increase")).await;
            assert_eq!(settled.body["handled"], true, "{:?}", settled.body);
            let opened = app
                .post(
                    &format!("/api/tasks/{}/dispute", disputed.task),
                    Some(&disputed.poster),
                    json!({ "reason": "poor_quality", "message": "Half the fence leans" }),
                )
                .await;
            assert_eq!(opened.status, StatusCode::CREATED, "{:?}", opened.body);
            let resolve = format!("/api/admin/disputes/{}/resolve", opened.body["id"].as_str().unwrap());
            let body = json!({ "outcome": "partial_refund", "refund_cents": 12_000, "note": "Redo half" });
            let decided = app.post(&resolve, Some(&operator), body).await;
            assert_eq!(decided.status, StatusCode::OK, "{:?}", decided.body);
            assert_eq!(
                escrow_of(&app, &disputed.task).await,
                [row("task", "refunded", 10_000, 1_000, 10_000), row("increase", "released", 4_000, 200, 2_000)]
            );
            let [task_payment, increase_payment] =
                [payment_id(&app, &disputed.task, "task").await, payment_id(&app, &disputed.task, "increase").await];
            let mut refunds: Vec<_> = posted(&fake, "/v1/refunds").await.iter().map(refund_sent).collect();
            refunds.retain(|[_, intent, _]| intent.starts_with("pi_dispute"));
            refunds.sort();
            assert_eq!(
                refunds,
                [
                    strings(["10000", "pi_dispute_task", &format!("refund-{task_payment}")]),
                    strings(["2000", "pi_dispute_increase", &format!("refund-{increase_payment}")]),
                ]
            );
            let transfers: Vec<_> = posted(&fake, "/v1/transfers").await.iter().map(transfer_sent).collect();
            assert_eq!(
                transfers,
                [strings(["1800", account, "ch_dispute_increase", &format!("transfer-{increase_payment}")])]
            );
            assert_ledger_audits(&app).await;
            app
        },
    )
    .await;
    fake.assert_requests_conform().await;
}

async fn increase_status(app: &TestApp, task: &StripeTask, increase: &str) -> String {
    let listed = app.get(&format!("/api/tasks/{}/price-increases", task.task), Some(&task.tasker)).await;
    let items = listed.body["items"].as_array().unwrap();
    let found = items.iter().find(|item| item["id"] == increase).expect("the increase is listed");
    found["status"].as_str().unwrap().to_owned()
}

async fn a_late_settling_increase_joins_the_escrow_when_stripe_says_the_debit_cleared(backend: common::Backend) {
    let fake = FakeStripe::start().await;
    let account = "acct_late_tasker";
    common::run(
        backend,
        |config| configure(config, &fake),
        |app| async {
            let checkout = StripeCheckout::paid("cs_late_task", "pi_late_task", "ch_late_task");
            let task = assigned_through_stripe(&app, &fake, "late", account, 10_000, &checkout).await;

            // Paid by direct debit: Checkout completes, the money arrives days later.
            let debit = StripeCheckout {
                late: true,
                ..StripeCheckout::paid("cs_late_debit", "pi_late_debit", "ch_late_debit")
            };
            let increase = approved_increase(&app, &fake, &task, 5_000, &debit).await;
            let completed = send_webhook(&app, WEBHOOK_SECRET, &debit.completed_event("evt_debit_completed")).await;
            assert_eq!(completed.body["handled"], true, "{:?}", completed.body);
            assert_eq!(increase_status(&app, &task, &increase).await, "approved");
            assert_eq!(
                escrow_of(&app, &task.task).await,
                [row("task", "held", 10_000, 1_000, 0), row("increase", "processing", 5_000, 500, 0)]
            );
            assert_ledger_audits(&app).await;
            debit.settle(&fake, 5_000).await;
            let succeeded = debit.event("evt_debit_succeeded", "checkout.session.async_payment_succeeded", "paid");
            let settled = send_webhook(&app, WEBHOOK_SECRET, &succeeded).await;
            assert_eq!(settled.body["handled"], true, "{:?}", settled.body);
            assert_eq!(increase_status(&app, &task, &increase).await, "paid");
            assert_eq!(
                escrow_of(&app, &task.task).await,
                [row("task", "held", 10_000, 1_000, 0), row("increase", "held", 5_000, 500, 0)]
            );
            assert_ledger_audits(&app).await;

            // A second debit the bank refuses: nothing joins the escrow and the poster may approve again.
            let refused =
                StripeCheckout { late: true, ..StripeCheckout::paid("cs_late_refused", "pi_late_refused", "ch_none") };
            let second = approved_increase(&app, &fake, &task, 1_000, &refused).await;
            send_webhook(&app, WEBHOOK_SECRET, &refused.completed_event("evt_refused_completed")).await;
            refused.fail(&fake, 1_000).await;
            let failed = refused.event("evt_refused_failed", "checkout.session.async_payment_failed", "unpaid");
            assert_eq!(send_webhook(&app, WEBHOOK_SECRET, &failed).await.body["handled"], true);
            assert_eq!(increase_status(&app, &task, &second).await, "pending");

            fake.on("POST", "/v1/transfers", 200, transfer("tr_1", 9_000, account, Some("ch_late_task")))
                .mount(&fake.server)
                .await;
            let released = app.post(&format!("/api/tasks/{}/release", task.task), Some(&task.poster), json!({})).await;
            assert_eq!(released.status, StatusCode::OK, "{:?}", released.body);
            assert_eq!(increase_status(&app, &task, &second).await, "closed");
            assert_eq!(
                escrow_of(&app, &task.task).await,
                [
                    row("task", "released", 10_000, 1_000, 0),
                    row("increase", "released", 5_000, 500, 0),
                    row("increase", "failed", 1_000, 100, 0)
                ]
            );
            let mut transfers: Vec<_> = posted(&fake, "/v1/transfers").await.iter().map(transfer_sent).collect();
            transfers.sort();
            let [task_payment, increase_payment] =
                [payment_id(&app, &task.task, "task").await, payment_id(&app, &task.task, "increase").await];
            assert_eq!(
                transfers,
                [
                    strings(["4500", account, "ch_late_debit", &format!("transfer-{increase_payment}")]),
                    strings(["9000", account, "ch_late_task", &format!("transfer-{task_payment}")]),
                ]
            );
            assert!(posted(&fake, "/v1/refunds").await.is_empty(), "the refused debit was never charged");
            assert_ledger_audits(&app).await;
            app
        },
    )
    .await;
    fake.assert_requests_conform().await;
}

on_both_backends!(given_backend;
    an_increase_paid_through_stripe_is_released_with_the_fee_and_a_tip_goes_over_in_full,
    refunds_after_an_increase_return_the_whole_escrow_through_stripe,
    a_late_settling_increase_joins_the_escrow_when_stripe_says_the_debit_cleared,
);
