//! A fake Stripe (wiremock) held to Stripe's published description of its API:
//! every request it answers is checked against the operation's parameters and
//! every answer against the operation's response schema ([`super::stripe_spec`]).
//! Violations are collected while the test runs and fail it when the fake is
//! dropped, so a test cannot pass on a request shape or an answer Stripe would
//! not accept or give. The builders below make whole objects as Stripe sends them.
//!
//! A test crate includes it with its sibling, e.g.
//! `#[path = "common/stripe_fake.rs"] mod stripe_fake;` and
//! `#[path = "common/stripe_spec.rs"] mod stripe_spec;` (or both in `common/mod.rs`).
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use wiremock::{
    Mock, MockServer, Request, Respond, ResponseTemplate,
    matchers::{any, method, path},
};

use super::stripe_spec;

pub struct FakeStripe {
    pub server: MockServer,
    violations: Arc<Mutex<Vec<String>>>,
}

impl FakeStripe {
    /// A fake whose unmatched requests are still checked, and answered as Stripe answers an unknown object.
    pub async fn start() -> Self {
        let fake = Self { server: MockServer::start().await, violations: Arc::default() };
        let missing = error("invalid_request_error", Some("resource_missing"), "No such object");
        Mock::given(any()).respond_with(fake.answer(404, missing)).with_priority(u8::MAX).mount(&fake.server).await;
        fake
    }

    pub fn uri(&self) -> String {
        self.server.uri()
    }

    /// A responder answering `status` with the JSON `body`; use it in `Mock::given(…).respond_with(…)`.
    pub fn answer(&self, status: u16, body: Value) -> Checked {
        Checked { status, body: Some(body), violations: self.violations.clone() }
    }

    /// A responder answering `status` with no body (a proxy's 502/503, say); the request is still checked.
    pub fn answer_without_body(&self, status: u16) -> Checked {
        Checked { status, body: None, violations: self.violations.clone() }
    }

    /// `method path` answered by [`Self::answer`]; mount it with `.mount(&fake.server)`.
    pub fn on(&self, verb: &str, route: &str, status: u16, body: Value) -> Mock {
        Mock::given(method(verb)).and(path(route)).respond_with(self.answer(status, body))
    }

    pub async fn requests(&self) -> Vec<Request> {
        self.server.received_requests().await.expect("request recording is on")
    }

    /// Checks every request received so far, also those answered by a plain `ResponseTemplate`.
    pub async fn assert_requests_conform(&self) {
        let found: Vec<String> = self.requests().await.iter().flat_map(check_request).collect();
        assert!(found.is_empty(), "requests Stripe's OpenAPI spec does not allow:\n  {}", found.join("\n  "));
    }

    /// What the spec check found so far (also reported when the fake is dropped).
    pub fn violations(&self) -> Vec<String> {
        self.violations.lock().unwrap().clone()
    }

    /// Takes the violations found so far, for a test that provokes one on purpose.
    pub fn take_violations(&self) -> Vec<String> {
        std::mem::take(&mut *self.violations.lock().unwrap())
    }
}

impl Drop for FakeStripe {
    fn drop(&mut self) {
        let violations = self.violations();
        if !violations.is_empty() && !std::thread::panicking() {
            panic!("the fake Stripe saw what Stripe's OpenAPI spec does not allow:\n  {}", violations.join("\n  "));
        }
    }
}

pub struct Checked {
    status: u16,
    body: Option<Value>,
    violations: Arc<Mutex<Vec<String>>>,
}

impl Respond for Checked {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let (verb, route) = (request.method.as_str(), request.url.path());
        let mut found = check_request(request);
        if let Some(body) = &self.body {
            found.extend(stripe_spec::check_response(verb, route, self.status, body).err().unwrap_or_default());
        }
        self.violations.lock().unwrap().extend(found);
        match &self.body {
            Some(body) => ResponseTemplate::new(self.status).set_body_json(body),
            None => ResponseTemplate::new(self.status),
        }
    }
}

/// A recorded request against the spec, plus what every Stripe request needs (form content type on POST).
pub fn check_request(request: &Request) -> Vec<String> {
    let (verb, route) = (request.method.as_str(), request.url.path());
    let mut found =
        stripe_spec::check_request(verb, route, request.url.query(), &request.body).err().unwrap_or_default();
    let content_type = request.headers.get("content-type").and_then(|value| value.to_str().ok());
    if verb == "POST" && !request.body.is_empty() && content_type != Some("application/x-www-form-urlencoded") {
        found.push(format!("{verb} {route}: content type {content_type:?}, Stripe takes a form"));
    }
    found
}

const CREATED: i64 = 1_700_000_000;

/// A Checkout Session in `payment` mode as Stripe returns it; `payment_intent` is an id, an expanded object or null.
pub fn checkout_session(id: &str, status: &str, payment_status: &str, payment_intent: Value) -> Value {
    json!({
        "id": id, "object": "checkout.session", "mode": "payment", "status": status, "payment_status": payment_status,
        "payment_intent": payment_intent, "url": (status == "open").then(|| format!("https://checkout.stripe.test/c/pay/{id}")),
        "amount_subtotal": 12_345, "amount_total": 12_345, "currency": "aud", "created": CREATED,
        "expires_at": CREATED + 3_600, "livemode": false, "metadata": {}, "client_reference_id": null,
        "success_url": "http://app.test/payment-success?session_id={CHECKOUT_SESSION_ID}", "cancel_url": "http://app.test/",
        "automatic_tax": {"enabled": false, "status": null}, "custom_fields": [], "custom_text": {},
        "payment_method_types": ["card"], "shipping_options": [], "customer": null, "customer_email": null,
        "locale": null, "submit_type": null, "subscription": null, "setup_intent": null, "invoice": null,
        "phone_number_collection": {"enabled": false}, "recovered_from": null, "after_expiration": null,
    })
}

/// A PaymentIntent as it appears expanded in a session; `latest_charge` is the charge's id (not expanded).
pub fn payment_intent(id: &str, status: &str, latest_charge: Option<&str>) -> Value {
    let received = if status == "succeeded" { 12_345 } else { 0 };
    json!({
        "id": id, "object": "payment_intent", "amount": 12_345, "amount_capturable": 0,
        "amount_received": received, "currency": "aud", "status": status,
        "capture_method": "automatic", "confirmation_method": "automatic", "created": CREATED, "livemode": false,
        "latest_charge": latest_charge, "metadata": {}, "payment_method_types": ["card"], "transfer_group": null,
    })
}

pub fn transfer(id: &str, amount: i64, destination: &str, source_transaction: Option<&str>) -> Value {
    json!({
        "id": id, "object": "transfer", "amount": amount, "amount_reversed": 0, "currency": "aud", "created": CREATED,
        "destination": destination, "source_transaction": source_transaction, "livemode": false, "metadata": {},
        "reversed": false, "reversals": {"object": "list", "data": [], "has_more": false, "url": format!("/v1/transfers/{id}/reversals")},
        "transfer_group": null, "description": null, "balance_transaction": "txn_1",
    })
}

pub fn refund(id: &str, amount: i64, payment_intent: &str) -> Value {
    json!({
        "id": id, "object": "refund", "amount": amount, "currency": "aud", "created": CREATED, "status": "succeeded",
        "payment_intent": payment_intent, "charge": "ch_1", "metadata": {}, "reason": null, "receipt_number": null,
        "balance_transaction": "txn_2",
    })
}

/// An Express account; `transfers` is the capability's status (`active`, `inactive`, `pending`).
pub fn account(id: &str, transfers: &str, payouts_enabled: bool) -> Value {
    json!({
        "id": id, "object": "account", "type": "express", "country": "AU", "default_currency": "aud", "created": CREATED,
        "email": "tasker@example.com", "capabilities": {"transfers": transfers}, "charges_enabled": false,
        "payouts_enabled": payouts_enabled, "details_submitted": payouts_enabled, "metadata": {},
    })
}

pub fn account_link(url: &str) -> Value {
    json!({"object": "account_link", "url": url, "created": CREATED, "expires_at": CREATED + 300})
}

/// A webhook event carrying `object` (as `data.object`).
pub fn event(id: &str, kind: &str, object: Value) -> Value {
    json!({
        "id": id, "object": "event", "type": kind, "api_version": "2025-08-27.basil", "created": CREATED,
        "livemode": false, "pending_webhooks": 1, "request": {"id": null, "idempotency_key": null},
        "data": {"object": object},
    })
}

/// Stripe's error body.
pub fn error(kind: &str, code: Option<&str>, message: &str) -> Value {
    let mut error = json!({"type": kind, "message": message});
    if let Some(code) = code {
        error["code"] = json!(code);
    }
    json!({ "error": error })
}
