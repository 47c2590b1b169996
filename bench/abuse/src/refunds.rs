//! A refund behind permanently failing transfers: 150 released payments whose
//! transfers the provider refuses every time (taskers who never set up payouts),
//! then one cancellation whose refund fails once. Sweeps run one minute apart
//! on a simulated clock; prints how many sweeps and how long each took until
//! the refund was made.

use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use domain::payments::{
    sandbox::{Call, Fault},
    sweep,
};
use reqwest::{Client, StatusCode, header};
use serde_json::{Value, json};
use store::{db::Timestamp, payments};

use crate::Bench;

struct Api {
    client: Client,
    base: String,
}

impl Api {
    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Value,
    ) -> anyhow::Result<Value> {
        let mut request = self.client.request(method, format!("{}{path}", self.base)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        ensure!(status.is_success(), "{path}: {status} {body}");
        Ok(body)
    }

    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> anyhow::Result<Value> {
        self.call(reqwest::Method::POST, path, token, body).await
    }

    async fn user(&self, email: &str, account_type: &str) -> anyhow::Result<String> {
        let skills = if account_type == "tasker" { json!([{ "name": "Assembly", "level": 70 }]) } else { json!([]) };
        let signup = json!({ "email": email, "password": "correct horse", "first_name": "Bench", "last_name": "User",
            "account_type": account_type, "skills": skills });
        self.post("/api/auth/signup", None, signup).await?;
        let session =
            self.post("/api/auth/login", None, json!({ "email": email, "password": "correct horse" })).await?;
        Ok(session["access_token"].as_str().context("an access token")?.to_owned())
    }

    /// A task of `poster`'s assigned to `tasker` and paid through the sandbox page: (task id, session id).
    async fn assigned(&self, poster: &str, tasker: &str, amount: i64, n: usize) -> anyhow::Result<String> {
        let due = time::OffsetDateTime::now_utc().date() + time::Duration::days(3);
        let task = self
            .post(
                "/api/tasks",
                Some(poster),
                json!({ "title": format!("Bench task {n}"), "description": "Flat-pack",
                "category_id": 2, "location": "Newtown NSW", "budget_cents": 10_000, "due_date": due.to_string() }),
            )
            .await?;
        let task = task["id"].as_str().context("task id")?.to_owned();
        let offer = self
            .post(
                &format!("/api/tasks/{task}/offers"),
                Some(tasker),
                json!({ "amount_cents": amount, "message": "Happy to" }),
            )
            .await?;
        let offer = offer["id"].as_str().context("offer id")?.to_owned();
        let checkout = self
            .post("/api/payments/checkout-session", Some(poster), json!({ "task_id": task, "offer_id": offer }))
            .await?;
        let paid = self
            .client
            .post(checkout["url"].as_str().context("checkout url")?)
            .form(&[("action", "pay"), ("card_number", "4242 4242 4242 4242")])
            .send()
            .await?;
        ensure!(paid.status() == StatusCode::SEE_OTHER, "sandbox pay: {}", paid.status());
        ensure!(paid.headers().contains_key(header::LOCATION));
        let verify = json!({ "session_id": checkout["session_id"], "task_id": task, "offer_id": offer });
        self.post("/api/payments/verify", Some(poster), verify).await?;
        Ok(task)
    }
}

pub async fn run(backend: &str, transfers: usize) -> anyhow::Result<()> {
    let bench = Bench::start(backend, |config| {
        config.payments_sweep_secs = 0;
        config.require_email_verification = false;
        config.auth_rate_limit_per_minute = 10_000;
        config.task_posts_per_hour = 1_000_000;
        config.task_posts_per_client_per_hour = 1_000_000;
    })
    .await?;
    let api = Api {
        client: Client::builder().redirect(reqwest::redirect::Policy::none()).build()?,
        base: bench.server.url(),
    };
    let state = &bench.server.state;
    state.payments.sandbox().faults().inject(Call::Transfer, Fault::Refused);
    let poster = api.user("bench-poster@example.com", "customer").await?;
    let mut taskers = Vec::new();
    for n in 0..15 {
        taskers.push(api.user(&format!("bench-tasker-{n}@example.com"), "tasker").await?);
    }
    let started = Instant::now();
    for n in 0..transfers {
        let task = api.assigned(&poster, &taskers[n % taskers.len()], 5_000 + n as i64, n).await?;
        api.post(&format!("/api/tasks/{task}/release"), Some(&poster), json!({})).await?;
    }
    println!(
        "refunds: {transfers} released payments with refused transfers set up in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    state.payments.sandbox().faults().inject(Call::Refund, Fault::Unavailable(1));
    let tasker = api.user("bench-cancelling-tasker@example.com", "tasker").await?;
    let task = api.assigned(&poster, &tasker, 7_700, transfers).await?;
    api.post(&format!("/api/tasks/{task}/cancellation"), Some(&tasker), json!({ "reason": "Unwell" })).await?;
    api.post(&format!("/api/tasks/{task}/cancellation/accept"), Some(&poster), json!({})).await?;

    let refund_made = || async {
        let all = payments::payments_for_task(&state.db, task.parse().expect("task id")).await?;
        anyhow::Ok(all.iter().any(|p| p.status == model::states::PaymentStatus::Refunded && p.refund_ref.is_some()))
    };
    ensure!(!refund_made().await?, "the refund's first attempt was meant to fail");
    let mut at = Timestamp::now();
    for round in 1..=10 {
        at = at.plus(Duration::from_secs(61));
        let swept = Instant::now();
        let report = sweep::sweep(state, at).await?;
        let made = refund_made().await?;
        println!(
            "refunds: sweep {round} (simulated +{} s) took {:.0} ms: {} calls tried, {} succeeded; refund made: {made}",
            round * 61,
            swept.elapsed().as_secs_f64() * 1000.0,
            report.provider_calls_retried,
            report.provider_calls_succeeded
        );
        if made {
            println!(
                "refunds: the refund completed in sweep {round}, behind {transfers} permanently failing transfers"
            );
            return bench.stop().await;
        }
    }
    bench.stop().await?;
    anyhow::bail!("the refund was still not made after 10 sweeps")
}
