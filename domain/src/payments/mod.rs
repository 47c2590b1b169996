//! Payments behind a trait (docs/architecture.md, decision 5): [`Sandbox`] (default, a hosted
//! checkout page served by this server) and [`Stripe`] (selected by
//! `STRIPE_SECRET_KEY`). Escrow is "separate charges and transfers": the poster
//! is charged to the platform, and on release a transfer of amount − fee goes
//! to the tasker's payout account. Every call carries an idempotency key, so a
//! retried transition never moves money twice.

pub mod calls;
pub mod cancellation_requests;
pub mod disputes;
pub mod escrow;
pub mod increases;
pub mod payment_requests;
pub mod payouts;
pub mod providers;
pub mod releases;
pub mod sandbox;
pub mod stripe;
pub mod sweep;
pub mod tips;
pub mod webhook;

use std::collections::BTreeMap;

use async_trait::async_trait;
use uuid::Uuid;

pub use self::{
    providers::Providers,
    sandbox::{Sandbox, SandboxFaults},
    stripe::Stripe,
};

/// The placeholder a provider replaces with its session id in `success_url`.
pub const SESSION_ID_PLACEHOLDER: &str = "{CHECKOUT_SESSION_ID}";

#[derive(Clone, Debug)]
pub struct CheckoutRequest {
    /// Our payment id; also the idempotency key of the call.
    pub payment_id: Uuid,
    /// What the poster sees on the checkout page (the task's title).
    pub description: String,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub currency: String,
    /// May contain [`SESSION_ID_PLACEHOLDER`].
    pub success_url: String,
    pub cancel_url: String,
    /// Groups the charge with its later transfer (`task_{id}`).
    pub transfer_group: String,
    pub metadata: BTreeMap<String, String>,
    /// Epoch milliseconds after which the session can no longer be paid.
    pub expires_at: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckoutSession {
    pub id: String,
    pub url: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckoutStatus {
    /// Not paid yet; can still be paid.
    Open,
    /// Paid by a method that settles later (e.g. BECS Direct Debit): the
    /// money is not ours yet, and the session can no longer expire.
    Processing { payment_intent: Option<String> },
    /// Paid: the charge to transfer from or refund.
    Paid { charge_ref: Option<String>, payment_intent: Option<String> },
    /// A payment that was processing did not settle (the bank refused it).
    Failed,
    /// Can no longer be paid and was not.
    Expired,
}

#[derive(Clone, Debug)]
pub struct TransferRequest {
    pub payment_id: Uuid,
    pub amount_cents: i64,
    pub currency: String,
    /// The tasker's payout account (Stripe `acct_…`); `None` in the sandbox.
    pub destination: Option<String>,
    /// The charge the money came from (Stripe `source_transaction`).
    pub source_charge: Option<String>,
    pub transfer_group: String,
}

#[derive(Clone, Debug)]
pub struct RefundRequest {
    pub payment_id: Uuid,
    pub charge_ref: Option<String>,
    pub payment_intent: Option<String>,
    pub amount_cents: i64,
}

#[derive(Clone, Debug)]
pub struct OnboardingRequest {
    pub user_id: Uuid,
    pub email: String,
    /// The account created earlier, if any (a link is needed per attempt).
    pub account_ref: Option<String>,
    pub refresh_url: String,
    pub return_url: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Onboarding {
    pub account_ref: String,
    /// Where to send the tasker; `None` when nothing is needed (sandbox).
    pub url: Option<String>,
    pub ready: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum PaymentError {
    /// The provider refused the request (bad card, invalid parameters, unknown object).
    #[error("{message}")]
    Rejected { code: String, message: String },
    /// The provider is unreachable or failing; the call may be retried with the same key.
    #[error("the payment provider is unavailable: {0}")]
    Unavailable(String),
    /// Our credentials or set-up are wrong (401/403 from the provider).
    #[error("the payment provider rejected our credentials: {0}")]
    Misconfigured(String),
}

#[async_trait]
pub trait PaymentProvider: Send + Sync {
    /// `sandbox` or `stripe`, as stored in `payments.provider`.
    fn name(&self) -> &'static str;
    async fn create_checkout(&self, request: &CheckoutRequest) -> Result<CheckoutSession, PaymentError>;
    async fn checkout_status(&self, session_id: &str) -> Result<CheckoutStatus, PaymentError>;
    /// Stops an unpaid session from being paid; answers its final status, never `Open`
    /// (a session paid meanwhile stays paid).
    async fn expire_checkout(&self, session_id: &str) -> Result<CheckoutStatus, PaymentError>;
    /// Pays the tasker from escrow; returns the provider's transfer reference.
    async fn transfer(&self, request: &TransferRequest) -> Result<String, PaymentError>;
    /// Returns a charge to the poster; returns the provider's refund reference.
    async fn refund(&self, request: &RefundRequest) -> Result<String, PaymentError>;
    /// Creates (once) the tasker's payout account and a link to finish setting it up.
    async fn onboarding(&self, request: &OnboardingRequest) -> Result<Onboarding, PaymentError>;
    /// Whether the account can receive transfers.
    async fn payout_account_ready(&self, account_ref: &str) -> Result<bool, PaymentError>;
}
