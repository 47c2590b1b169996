//! The REST side of a soak client: every call goes through nginx and is timed into `Metrics`.

use std::{sync::Arc, time::Duration};

use anyhow::{Context, bail};
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::metrics::{Metrics, Outcome};

pub const PASSWORD: &str = "correct-horse-7";

#[derive(Clone)]
pub struct Api {
    client: Client,
    pub base: String,
    metrics: Arc<Metrics>,
}

/// The answer to one call: a status (None when the call never got one) and the JSON body.
pub struct Answer {
    pub status: Option<StatusCode>,
    pub body: Value,
}

impl Answer {
    pub fn ok(&self) -> bool {
        self.status.is_some_and(|s| s.is_success())
    }
}

impl Api {
    pub fn new(base: &str, metrics: Arc<Metrics>) -> anyhow::Result<Self> {
        let client = Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            // Each person's browser keeps its connection open; one shared pool that kept only a
            // few would open a new connection through nginx for most calls of a burst.
            .pool_max_idle_per_host(256)
            .build()?;
        Ok(Self { client, base: base.trim_end_matches('/').to_owned(), metrics })
    }

    pub async fn call(&self, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> Answer {
        let at = self.metrics.now();
        let started = Instant::now();
        let method_name = method.to_string();
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer = match request.send().await {
            Ok(response) => {
                let status = response.status();
                let body = response.json().await.unwrap_or(Value::Null);
                Answer { status: Some(status), body }
            }
            Err(_) => Answer { status: None, body: Value::Null },
        };
        let outcome = match answer.status {
            Some(s) if s.is_success() => Outcome::Ok,
            Some(s) if s.is_client_error() && s != StatusCode::TOO_MANY_REQUESTS => Outcome::Refused,
            _ => Outcome::Failed,
        };
        self.metrics.rest(at, started.elapsed(), outcome, answer.status.map_or(0, |s| s.as_u16()), &method_name, path);
        answer
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Answer {
        self.call(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Answer {
        self.call(Method::POST, path, token, Some(body)).await
    }

    /// Repeats a call that must eventually succeed (idempotent or conditional: verify, release,
    /// request-payment) until it does or is refused, as a user pressing the button again would.
    pub async fn post_until_done(&self, path: &str, token: &str, body: Value, deadline: Instant) -> Answer {
        loop {
            let answer = self.post(path, Some(token), body.clone()).await;
            if answer
                .status
                .is_some_and(|s| s.is_success() || s.is_client_error() && s != StatusCode::TOO_MANY_REQUESTS)
                || Instant::now() >= deadline
            {
                return answer;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }

    /// Signs up, confirms the address through the dev mailbox and signs in: (user id, access token).
    pub async fn verified_user(&self, email: &str, tasker: bool) -> anyhow::Result<(String, String)> {
        let skills = if tasker { json!([{ "name": "Assembly", "level": 70 }]) } else { json!([]) };
        let signup = json!({ "email": email, "password": PASSWORD, "first_name": "Soak", "last_name": "User",
            "account_type": if tasker { "tasker" } else { "customer" }, "skills": skills });
        let answer = self.post("/api/auth/signup", None, signup).await;
        // 409: an earlier attempt went through although its answer was lost.
        if !answer.ok() && answer.status != Some(StatusCode::CONFLICT) {
            bail!("signup of {email}: {:?} {}", answer.status, answer.body);
        }
        let token = self.verification_token(email).await?;
        // Its answer may be lost, or the token spent by an earlier attempt: the login tells.
        self.post("/api/auth/verify", None, json!({ "token": token })).await;
        let session = self.post("/api/auth/login", None, json!({ "email": email, "password": PASSWORD })).await;
        if !session.ok() {
            bail!("login of {email}: {:?} {}", session.status, session.body);
        }
        let access = session.body["access_token"].as_str().context("login gave no access token")?.to_owned();
        if tasker {
            self.verify_identity(email, &access).await?;
        }
        let me = self.get("/api/me", Some(&access)).await;
        let id = me.body["user"]["id"].as_str().or(me.body["id"].as_str()).context("GET /api/me gave no id")?;
        Ok((id.to_owned(), access))
    }

    /// Passes the identity check on the sandbox provider's page, as a tasker does before their
    /// first payout: without it every release's transfer waits for the check.
    async fn verify_identity(&self, email: &str, token: &str) -> anyhow::Result<()> {
        for _ in 0..10 {
            let session = self.post("/api/me/identity/session", Some(token), json!({})).await;
            if let Some(url) = session.body["url"].as_str() {
                let decided = self.client.post(url).form(&[("action", "verify")]).send().await;
                if decided.is_ok_and(|answer| answer.status() == StatusCode::SEE_OTHER) {
                    return Ok(());
                }
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        bail!("identity check of {email} did not go through")
    }

    async fn verification_token(&self, email: &str) -> anyhow::Result<String> {
        for _ in 0..100 {
            let mails = self.get("/dev/mailbox.json", None).await.body;
            let text = mails.as_array().into_iter().flatten().find_map(|mail| {
                let to = mail["to"].as_str()?;
                to.contains(email).then(|| mail["text"].as_str().unwrap_or_default().to_owned())
            });
            if let Some(text) = text
                && let Some(start) = text.find("/verify-email?token=")
            {
                let token: String = text[start + "/verify-email?token=".len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '%'))
                    .collect();
                return Ok(token);
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        bail!("no confirmation mail to {email}")
    }

    /// Pays on the sandbox's hosted checkout page, as the poster's browser does: true when charged.
    pub async fn pay_in_sandbox(&self, url: &str) -> bool {
        let at = self.metrics.now();
        let started = Instant::now();
        let form = [("action", "pay"), ("card_number", "4242 4242 4242 4242")];
        let status = self.client.post(url).form(&form).send().await.map(|r| r.status()).ok();
        let outcome = match status {
            Some(StatusCode::SEE_OTHER) => Outcome::Ok,
            Some(s) if s.is_client_error() => Outcome::Refused,
            _ => Outcome::Failed,
        };
        let path = url.split_once("://").and_then(|(_, rest)| rest.find('/').map(|i| &rest[i..])).unwrap_or(url);
        self.metrics.rest(at, started.elapsed(), outcome, status.map_or(0, |s| s.as_u16()), "POST", path);
        status == Some(StatusCode::SEE_OTHER)
    }

    pub async fn ticket(&self, token: &str) -> Option<String> {
        let answer = self.post("/api/realtime/ticket", Some(token), json!({})).await;
        answer.body["ticket"].as_str().map(str::to_owned)
    }
}
