//! Verifying oneself: a phone code sent, an identity session started, and where the caller stands.

use serde::Serialize;

use store::db::Timestamp;

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CodeSent {
    /// The number the code went to, in E.164.
    pub phone: String,
    pub expires_at: Timestamp,
    /// When another code may be asked for (the resend countdown).
    pub resend_at: Timestamp,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct IdentitySessionStarted {
    /// Where to send the person: Stripe's hosted verification, or the sandbox page.
    pub url: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct MyVerification {
    pub email: bool,
    pub phone: bool,
    pub identity: bool,
    /// A payout account that can receive transfers, or a task paid for.
    pub payment: bool,
    /// The verified number (E.164), when `phone`.
    pub phone_number: Option<String>,
    pub identity_verified_at: Option<Timestamp>,
    /// An identity verification was started and the provider has not decided yet.
    pub identity_pending: bool,
    /// The last identity verification failed (start another).
    pub identity_failed: bool,
    /// Transfers wait until `identity` (`PAYOUTS_REQUIRE_IDENTITY`).
    pub identity_required_for_payouts: bool,
}
