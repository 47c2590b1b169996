//! Stripe through its documented form-encoded REST API (reqwest): Checkout
//! Sessions charge the poster to the platform, Transfers with
//! `source_transaction` pay the tasker's Connect Express account, Refunds
//! return the charge, Account Links onboard taskers. Every POST carries an
//! `Idempotency-Key` derived from our own ids, and is retried with the same key
//! when Stripe is unreachable or answers 429/5xx. The base URL is
//! configurable (`STRIPE_API_BASE`) so tests talk to a local fake.

use std::time::Duration;

use async_trait::async_trait;
use reqwest::{Method, StatusCode};
use serde::Deserialize;
use serde_json::Value;

use crate::{
    payments::{
        CheckoutRequest, CheckoutSession, CheckoutStatus, Onboarding, OnboardingRequest, PaymentError, PaymentProvider,
        RefundRequest, TransferRequest,
    },
    secret::Secret,
};

pub const DEFAULT_API_BASE: &str = "https://api.stripe.com";
const API_VERSION: &str = "2025-08-27.basil";
const ATTEMPTS: u32 = 3;

pub struct Stripe {
    http: reqwest::Client,
    secret_key: Secret,
    api_base: String,
}

type Form = Vec<(String, String)>;

fn field(form: &mut Form, key: &str, value: impl ToString) {
    form.push((key.to_owned(), value.to_string()));
}

#[derive(Deserialize)]
struct StripeErrorBody {
    error: StripeErrorDetail,
}

#[derive(Deserialize)]
struct StripeErrorDetail {
    #[serde(default)]
    code: Option<String>,
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

impl Stripe {
    pub fn new(secret_key: Secret, api_base: &str) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .connect_timeout(Duration::from_secs(5))
            .user_agent("Taskhub/0.1")
            .build()
            .expect("a TLS-capable HTTP client");
        Self { http, secret_key, api_base: api_base.trim_end_matches('/').to_owned() }
    }

    /// One API call; POSTs carry `idempotency_key` and are retried with it.
    pub(crate) async fn call(
        &self,
        method: Method,
        path: &str,
        form: &Form,
        idempotency_key: Option<&str>,
    ) -> Result<Value, PaymentError> {
        let url = format!("{}{path}", self.api_base);
        let mut last_error = PaymentError::Unavailable("no attempt made".into());
        for attempt in 0..ATTEMPTS {
            if attempt > 0 {
                tokio::time::sleep(wait_before(attempt)).await;
            }
            let mut request = self
                .http
                .request(method.clone(), &url)
                .bearer_auth(self.secret_key.expose())
                .header("Stripe-Version", API_VERSION);
            if let Some(key) = idempotency_key {
                request = request.header("Idempotency-Key", key);
            }
            request = if method == Method::GET { request.query(form) } else { request.form(form) };
            let response = match request.send().await {
                Ok(response) => response,
                Err(error) => {
                    last_error = PaymentError::Unavailable(format!("{method} {path}: {error}"));
                    continue;
                }
            };
            let status = response.status();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            if status.is_success() {
                return Ok(body);
            }
            let error = map_error(status, &body);
            let retryable = matches!(error, PaymentError::Unavailable(_));
            // Without an idempotency key a retried POST could act twice.
            if !retryable || (method != Method::GET && idempotency_key.is_none()) {
                return Err(error);
            }
            last_error = error;
        }
        Err(last_error)
    }

    async fn session_status(&self, session_id: &str) -> Result<CheckoutStatus, PaymentError> {
        let form = vec![("expand[]".to_owned(), "payment_intent".to_owned())];
        let session = self.call(Method::GET, &format!("/v1/checkout/sessions/{session_id}"), &form, None).await?;
        Ok(parse_session_status(&session))
    }
}

/// How long to wait before retry `attempt` (1, 2, …): 200 ms, then twice as long each time.
fn wait_before(attempt: u32) -> Duration {
    Duration::from_millis(200 * 2u64.pow(attempt - 1))
}

/// Stripe's error answers → ours: 401/403 our set-up, 409/429/5xx retryable, other 4xx a refusal.
fn map_error(status: StatusCode, body: &Value) -> PaymentError {
    let detail = serde_json::from_value::<StripeErrorBody>(body.clone()).ok().map(|body| body.error);
    let message =
        detail.as_ref().and_then(|d| d.message.clone()).unwrap_or_else(|| format!("Stripe answered {status}"));
    let code = detail
        .as_ref()
        .and_then(|d| d.code.clone().or_else(|| d.kind.clone()))
        .unwrap_or_else(|| status.as_str().to_owned());
    match status {
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => PaymentError::Misconfigured(message),
        // 409: an idempotent request still in flight on Stripe's side.
        StatusCode::CONFLICT | StatusCode::TOO_MANY_REQUESTS => PaymentError::Unavailable(message),
        status if status.is_server_error() => PaymentError::Unavailable(message),
        _ => PaymentError::Rejected { code, message },
    }
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// A session's state, read from the session with its `payment_intent` expanded.
/// A `complete` session that is still `unpaid` was paid by a method that
/// settles later (BECS Direct Debit and other delayed methods): it is
/// processing until its intent succeeds, or failed once the intent needs a
/// new payment method or was cancelled.
fn parse_session_status(session: &Value) -> CheckoutStatus {
    // `payment_intent` is an id, or the object when expanded.
    let intent = &session["payment_intent"];
    let payment_intent = match intent {
        Value::String(id) => Some(id.clone()),
        Value::Object(_) => text(intent, "id"),
        _ => None,
    };
    let paid = matches!(session["payment_status"].as_str(), Some("paid" | "no_payment_required"));
    if paid {
        let charge_ref = text(intent, "latest_charge").or_else(|| text(&intent["latest_charge"], "id"));
        return CheckoutStatus::Paid { charge_ref, payment_intent };
    }
    match (session["status"].as_str(), intent["status"].as_str()) {
        (Some("complete"), Some("requires_payment_method" | "canceled")) => CheckoutStatus::Failed,
        (Some("complete"), _) => CheckoutStatus::Processing { payment_intent },
        (Some("expired"), _) => CheckoutStatus::Expired,
        _ => CheckoutStatus::Open,
    }
}

#[async_trait]
impl PaymentProvider for Stripe {
    fn name(&self) -> &'static str {
        "stripe"
    }

    async fn create_checkout(&self, request: &CheckoutRequest) -> Result<CheckoutSession, PaymentError> {
        let mut form = Form::new();
        field(&mut form, "mode", "payment");
        field(&mut form, "line_items[0][quantity]", 1);
        field(&mut form, "line_items[0][price_data][currency]", &request.currency);
        field(&mut form, "line_items[0][price_data][unit_amount]", request.amount_cents);
        field(&mut form, "line_items[0][price_data][product_data][name]", &request.description);
        field(&mut form, "payment_intent_data[transfer_group]", &request.transfer_group);
        field(&mut form, "success_url", &request.success_url);
        field(&mut form, "cancel_url", &request.cancel_url);
        field(&mut form, "client_reference_id", request.payment_id);
        field(&mut form, "expires_at", request.expires_at / 1000);
        for (key, value) in &request.metadata {
            field(&mut form, &format!("metadata[{key}]"), value);
            field(&mut form, &format!("payment_intent_data[metadata][{key}]"), value);
        }
        let key = format!("checkout-{}", request.payment_id);
        let session = self.call(Method::POST, "/v1/checkout/sessions", &form, Some(&key)).await?;
        match (text(&session, "id"), text(&session, "url")) {
            (Some(id), Some(url)) => Ok(CheckoutSession { id, url }),
            _ => Err(PaymentError::Unavailable("Stripe returned a checkout session without id or url".into())),
        }
    }

    async fn checkout_status(&self, session_id: &str) -> Result<CheckoutStatus, PaymentError> {
        self.session_status(session_id).await
    }

    async fn expire_checkout(&self, session_id: &str) -> Result<CheckoutStatus, PaymentError> {
        let key = format!("expire-{session_id}");
        match self
            .call(Method::POST, &format!("/v1/checkout/sessions/{session_id}/expire"), &Form::new(), Some(&key))
            .await
        {
            Ok(session) => Ok(parse_session_status(&session)),
            // Already complete or expired: Stripe refuses; its current status is the answer.
            Err(PaymentError::Rejected { .. }) => self.session_status(session_id).await,
            Err(other) => Err(other),
        }
    }

    async fn transfer(&self, request: &TransferRequest) -> Result<String, PaymentError> {
        let Some(destination) = &request.destination else {
            return Err(PaymentError::Rejected {
                code: "payout_account_missing".into(),
                message: "The tasker has not set up payouts yet".into(),
            });
        };
        let mut form = Form::new();
        field(&mut form, "amount", request.amount_cents);
        field(&mut form, "currency", &request.currency);
        field(&mut form, "destination", destination);
        field(&mut form, "transfer_group", &request.transfer_group);
        field(&mut form, "metadata[payment_id]", request.payment_id);
        if let Some(charge) = &request.source_charge {
            field(&mut form, "source_transaction", charge);
        }
        let key = format!("transfer-{}", request.payment_id);
        let transfer = self.call(Method::POST, "/v1/transfers", &form, Some(&key)).await?;
        text(&transfer, "id").ok_or_else(|| PaymentError::Unavailable("Stripe returned a transfer without id".into()))
    }

    async fn refund(&self, request: &RefundRequest) -> Result<String, PaymentError> {
        let mut form = Form::new();
        match (&request.payment_intent, &request.charge_ref) {
            (Some(intent), _) => field(&mut form, "payment_intent", intent),
            (None, Some(charge)) => field(&mut form, "charge", charge),
            (None, None) => {
                return Err(PaymentError::Rejected {
                    code: "charge_missing".into(),
                    message: "Nothing to refund".into(),
                });
            }
        }
        field(&mut form, "amount", request.amount_cents);
        field(&mut form, "metadata[payment_id]", request.payment_id);
        let key = format!("refund-{}", request.payment_id);
        let refund = self.call(Method::POST, "/v1/refunds", &form, Some(&key)).await?;
        text(&refund, "id").ok_or_else(|| PaymentError::Unavailable("Stripe returned a refund without id".into()))
    }

    async fn onboarding(&self, request: &OnboardingRequest) -> Result<Onboarding, PaymentError> {
        let account_ref = match &request.account_ref {
            Some(account) => account.clone(),
            None => {
                let mut form = Form::new();
                field(&mut form, "type", "express");
                field(&mut form, "email", &request.email);
                field(&mut form, "capabilities[transfers][requested]", true);
                field(&mut form, "metadata[user_id]", request.user_id);
                let key = format!("account-{}", request.user_id);
                let account = self.call(Method::POST, "/v1/accounts", &form, Some(&key)).await?;
                text(&account, "id")
                    .ok_or_else(|| PaymentError::Unavailable("Stripe returned an account without id".into()))?
            }
        };
        let mut form = Form::new();
        field(&mut form, "account", &account_ref);
        field(&mut form, "refresh_url", &request.refresh_url);
        field(&mut form, "return_url", &request.return_url);
        field(&mut form, "type", "account_onboarding");
        // Links are single-use, so each request is a new operation with its own key.
        let key = format!("account-link-{}-{}", request.user_id, uuid::Uuid::now_v7());
        let link = self.call(Method::POST, "/v1/account_links", &form, Some(&key)).await?;
        let ready = self.payout_account_ready(&account_ref).await.unwrap_or(false);
        Ok(Onboarding { account_ref, url: text(&link, "url"), ready })
    }

    async fn payout_account_ready(&self, account_ref: &str) -> Result<bool, PaymentError> {
        let account = self.call(Method::GET, &format!("/v1/accounts/{account_ref}"), &Form::new(), None).await?;
        Ok(account["capabilities"]["transfers"] == "active" || account["payouts_enabled"] == true)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_paid_session_names_its_intent_and_charge() {
        let expanded = json!({"status": "complete", "payment_status": "paid",
            "payment_intent": {"id": "pi_1", "latest_charge": "ch_1"}});
        assert_eq!(
            parse_session_status(&expanded),
            CheckoutStatus::Paid { charge_ref: Some("ch_1".into()), payment_intent: Some("pi_1".into()) }
        );
        let collapsed = json!({"status": "complete", "payment_status": "paid", "payment_intent": "pi_2"});
        assert_eq!(
            parse_session_status(&collapsed),
            CheckoutStatus::Paid { charge_ref: None, payment_intent: Some("pi_2".into()) }
        );
        assert_eq!(parse_session_status(&json!({"status": "open", "payment_status": "unpaid"})), CheckoutStatus::Open);
        assert_eq!(
            parse_session_status(&json!({"status": "expired", "payment_status": "unpaid"})),
            CheckoutStatus::Expired
        );
    }

    #[test]
    fn a_complete_unpaid_session_is_processing_until_its_intent_settles_or_fails() {
        let processing = json!({"status": "complete", "payment_status": "unpaid",
            "payment_intent": {"id": "pi_3", "status": "processing", "latest_charge": null}});
        assert_eq!(
            parse_session_status(&processing),
            CheckoutStatus::Processing { payment_intent: Some("pi_3".into()) }
        );
        let collapsed = json!({"status": "complete", "payment_status": "unpaid", "payment_intent": "pi_4"});
        assert_eq!(
            parse_session_status(&collapsed),
            CheckoutStatus::Processing { payment_intent: Some("pi_4".into()) }
        );
        let failed = json!({"status": "complete", "payment_status": "unpaid",
            "payment_intent": {"id": "pi_5", "status": "requires_payment_method"}});
        assert_eq!(parse_session_status(&failed), CheckoutStatus::Failed);
    }

    #[test]
    fn retries_wait_200_ms_then_twice_as_long_each_time() {
        let waits: Vec<u128> = (1..ATTEMPTS).map(|attempt| wait_before(attempt).as_millis()).collect();
        assert_eq!(waits, [200, 400]);
    }

    #[test]
    fn stripe_errors_map_to_refusals_outages_and_misconfiguration() {
        let card =
            json!({"error": {"type": "card_error", "code": "card_declined", "message": "Your card was declined."}});
        assert!(matches!(map_error(StatusCode::PAYMENT_REQUIRED, &card),
            PaymentError::Rejected { code, message } if code == "card_declined" && message == "Your card was declined."));
        assert!(matches!(map_error(StatusCode::UNAUTHORIZED, &json!({})), PaymentError::Misconfigured(_)));
        assert!(matches!(map_error(StatusCode::TOO_MANY_REQUESTS, &json!({})), PaymentError::Unavailable(_)));
        assert!(matches!(map_error(StatusCode::BAD_GATEWAY, &Value::Null), PaymentError::Unavailable(_)));
        assert!(matches!(map_error(StatusCode::NOT_FOUND, &json!({"error": {"type": "invalid_request_error"}})),
            PaymentError::Rejected { code, .. } if code == "invalid_request_error"));
    }
}
