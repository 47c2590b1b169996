//! Stripe Identity through Stripe's form-encoded REST API: `POST /v1/identity/verification_sessions`
//! (type `document` with a matching selfie) and `GET /v1/identity/verification_sessions/{id}`.

use async_trait::async_trait;
use reqwest::Method;

use store::verification::IdentityStatus;

use crate::{
    payments::{PaymentError, Stripe},
    secret::Secret,
    verification::identity::{IdentityProvider, IdentityRequest, StartedSession},
};

pub struct StripeIdentity {
    stripe: Stripe,
}

impl StripeIdentity {
    pub fn new(secret_key: Secret, api_base: &str) -> Self {
        Self { stripe: Stripe::new(secret_key, api_base) }
    }
}

/// A VerificationSession's `status`: `verified`; `requires_input` after a failed attempt (with a
/// `last_error`) or before any; `processing`; `canceled`.
pub fn status_of(session: &serde_json::Value) -> IdentityStatus {
    match session["status"].as_str() {
        Some("verified") => IdentityStatus::Verified,
        Some("canceled") => IdentityStatus::Failed,
        Some("requires_input") if !session["last_error"].is_null() => IdentityStatus::Failed,
        _ => IdentityStatus::Pending,
    }
}

#[async_trait]
impl IdentityProvider for StripeIdentity {
    fn name(&self) -> &'static str {
        "stripe"
    }

    async fn start(&self, request: &IdentityRequest) -> Result<StartedSession, PaymentError> {
        let form: Vec<(String, String)> = vec![
            ("type".into(), "document".into()),
            ("options[document][require_matching_selfie]".into(), "true".into()),
            ("return_url".into(), request.return_url.clone()),
            ("metadata[user_id]".into(), request.user_id.to_string()),
        ];
        let key = format!("identity-{}", request.session_id);
        let session = self.stripe.call(Method::POST, "/v1/identity/verification_sessions", &form, Some(&key)).await?;
        match (session["id"].as_str(), session["url"].as_str()) {
            (Some(id), Some(url)) => Ok(StartedSession { provider_ref: id.to_owned(), url: url.to_owned() }),
            _ => Err(PaymentError::Unavailable("Stripe returned a verification session without id or url".into())),
        }
    }

    async fn status(&self, provider_ref: &str) -> Result<IdentityStatus, PaymentError> {
        let path = format!("/v1/identity/verification_sessions/{provider_ref}");
        let session = self.stripe.call(Method::GET, &path, &Vec::new(), None).await?;
        Ok(status_of(&session))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_a_verified_session_verifies_and_a_failed_attempt_fails() {
        assert_eq!(status_of(&json!({"status": "verified"})), IdentityStatus::Verified);
        assert_eq!(status_of(&json!({"status": "processing"})), IdentityStatus::Pending);
        assert_eq!(status_of(&json!({"status": "requires_input", "last_error": null})), IdentityStatus::Pending);
        let failed = json!({"status": "requires_input", "last_error": {"code": "document_expired"}});
        assert_eq!(status_of(&failed), IdentityStatus::Failed);
        assert_eq!(status_of(&json!({"status": "canceled"})), IdentityStatus::Failed);
    }
}
