//! Identity verification behind a trait: Stripe Identity (a VerificationSession, document and
//! selfie, on Stripe's hosted page) when Stripe is configured, else the sandbox page
//! `/sandbox/identity/{id}` with Verify and Fail. The outcome arrives by webhook
//! (`identity.verification_session.*`), from the sandbox page, or by asking the provider when
//! the person comes back; only the outcome and its date are stored.
//!
//! A tasker's transfers wait in the outbox until their identity is verified
//! (`PAYOUTS_REQUIRE_IDENTITY`); the verification releases them at once.

use std::sync::Arc;

use async_trait::async_trait;
use uuid::Uuid;

use model::states::ProviderCallStatus;
use store::{
    db::{Timestamp, new_id},
    provider_calls,
    verification::{self, IdentitySessionRow, IdentityStatus},
};

use crate::{
    config::Config,
    payments::{PaymentError, calls},
    refusal::DomainResult,
    services::Services,
    verification::stripe_identity::StripeIdentity,
};

/// Where the provider sends the person back (the settings page shows the outcome).
pub const RETURN_PATH: &str = "/settings?identity=done";

#[derive(Clone, Debug)]
pub struct IdentityRequest {
    /// Our session id; also the idempotency key.
    pub session_id: Uuid,
    pub user_id: Uuid,
    pub return_url: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartedSession {
    pub provider_ref: String,
    pub url: String,
}

#[async_trait]
pub trait IdentityProvider: Send + Sync {
    /// `sandbox` or `stripe`, as stored in `identity_sessions.provider`.
    fn name(&self) -> &'static str;
    async fn start(&self, request: &IdentityRequest) -> Result<StartedSession, PaymentError>;
    /// Where the session stands now, by the provider's own answer.
    async fn status(&self, provider_ref: &str) -> Result<IdentityStatus, PaymentError>;
}

/// The sandbox: its page decides, and our row is its record.
pub struct SandboxIdentity {
    db: store::db::Db,
    public_url: String,
}

#[async_trait]
impl IdentityProvider for SandboxIdentity {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    async fn start(&self, request: &IdentityRequest) -> Result<StartedSession, PaymentError> {
        let provider_ref = format!("vs_sandbox_{}", request.session_id.simple());
        Ok(StartedSession { url: format!("{}/sandbox/identity/{provider_ref}", self.public_url), provider_ref })
    }

    async fn status(&self, provider_ref: &str) -> Result<IdentityStatus, PaymentError> {
        let row = verification::identity_session_by_ref(&self.db, provider_ref)
            .await
            .map_err(|error| PaymentError::Unavailable(error.to_string()))?;
        Ok(row.map_or(IdentityStatus::Pending, |row| row.status))
    }
}

#[derive(Clone)]
pub struct IdentityProviders {
    sandbox: Arc<SandboxIdentity>,
    stripe: Option<Arc<StripeIdentity>>,
}

impl IdentityProviders {
    pub fn from_config(config: &Config, db: &store::db::Db, public_url: &str) -> Self {
        let stripe = config
            .stripe_secret_key
            .as_ref()
            .map(|key| Arc::new(StripeIdentity::new(key.clone(), &config.stripe_api_base)));
        Self { sandbox: Arc::new(SandboxIdentity { db: db.clone(), public_url: public_url.to_owned() }), stripe }
    }

    pub fn current(&self) -> &dyn IdentityProvider {
        match &self.stripe {
            Some(stripe) => stripe.as_ref(),
            None => self.sandbox.as_ref(),
        }
    }

    pub fn named(&self, name: &str) -> Option<&dyn IdentityProvider> {
        match (name, &self.stripe) {
            ("sandbox", _) => Some(self.sandbox.as_ref()),
            ("stripe", Some(stripe)) => Some(stripe.as_ref()),
            _ => None,
        }
    }
}

/// Opens a verification session with today's provider and records it as pending.
pub async fn start(state: &Services, user_id: Uuid) -> DomainResult<String> {
    let provider = state.identity.current();
    let request = IdentityRequest { session_id: new_id(), user_id, return_url: state.link(RETURN_PATH) };
    let started = provider.start(&request).await?;
    let row = IdentitySessionRow {
        id: request.session_id,
        user_id,
        provider: provider.name().to_owned(),
        provider_ref: started.provider_ref,
        status: IdentityStatus::Pending,
        created_at: Timestamp::now(),
        decided_at: None,
    };
    verification::insert_identity_session(&state.db, &row).await?;
    Ok(started.url)
}

/// Asks the session's provider where it stands and records a decision. True when this call
/// recorded one (a session is decided once).
pub async fn settle(state: &Services, session: &IdentitySessionRow) -> DomainResult<bool> {
    if session.status != IdentityStatus::Pending {
        return Ok(false);
    }
    let Some(provider) = state.identity.named(&session.provider) else {
        return Ok(false);
    };
    let status = provider.status(&session.provider_ref).await?;
    record(state, session, status).await
}

/// Records the provider's decision on a pending session; a verified identity releases the
/// transfers that waited for it.
pub async fn record(state: &Services, session: &IdentitySessionRow, status: IdentityStatus) -> DomainResult<bool> {
    if status == IdentityStatus::Pending {
        return Ok(false);
    }
    let decided = verification::decide_identity_session(&state.db, session.id, status, Timestamp::now()).await?;
    if decided && status == IdentityStatus::Verified {
        tracing::info!(user_id = %session.user_id, "identity verified; sending the transfers that waited for it");
        release_waiting_transfers(state, session.user_id).await?;
    }
    Ok(decided)
}

async fn release_waiting_transfers(state: &Services, user_id: Uuid) -> sqlx::Result<()> {
    for call in provider_calls::unsent_transfers_to(&state.db, user_id).await? {
        if call.status != ProviderCallStatus::Pending {
            continue;
        }
        calls::run(state, &call).await;
    }
    Ok(())
}
