//! Social sign-in (docs/architecture.md, decision 18): Google, Facebook and Apple, and in dev
//! mode a sandbox identity provider this server runs itself, each behind [`IdentityProvider`].
//! Google, Apple and the sandbox speak OpenID Connect through the `openidconnect` crate
//! (discovery, PKCE, `nonce`, a signed ID token); Facebook is OAuth 2 (`oauth2`) plus its Graph
//! API. The callers own `state` (stored server-side, single use) and the linking rules below.

pub mod apple;
pub mod facebook;
pub mod oidc;
pub mod sandbox;
pub mod settings;

use std::{sync::Arc, time::Duration};

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::config::Config;

/// How long a sign-in may take at the provider (start → callback), and how long a new person
/// has to choose customer or tasker afterwards.
pub const LOGIN_TTL: Duration = Duration::from_secs(10 * 60);
pub const SIGNUP_TTL: Duration = Duration::from_secs(30 * 60);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ProviderId {
    Google,
    Facebook,
    Apple,
    Sandbox,
}

impl ProviderId {
    pub const ALL: [ProviderId; 4] = [Self::Google, Self::Facebook, Self::Apple, Self::Sandbox];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Google => "google",
            Self::Facebook => "facebook",
            Self::Apple => "apple",
            Self::Sandbox => "sandbox",
        }
    }

    /// The name on the button ("Continue with Google").
    pub fn display_name(self) -> &'static str {
        match self {
            Self::Google => "Google",
            Self::Facebook => "Facebook",
            Self::Apple => "Apple",
            Self::Sandbox => "Sandbox ID",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|id| id.as_str() == text)
    }
}

/// Who the provider says signed in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderIdentity {
    /// The provider's stable id for the person (`sub`).
    pub subject: String,
    pub email: Option<String>,
    /// The provider vouches that the person controls `email`.
    pub email_verified: bool,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
}

/// What the provider's authorization page needs to know about this sign-in.
pub struct AuthorizationRequest<'a> {
    pub state: &'a str,
    pub nonce: &'a str,
    pub pkce_verifier: &'a str,
}

#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    /// The provider's answer does not prove who signed in: a refused code, an ID token with a
    /// wrong signature, audience, issuer or nonce.
    #[error("the sign-in was not confirmed: {0}")]
    NotConfirmed(String),
    /// The provider could not be reached or answered something unreadable.
    #[error(transparent)]
    Unavailable(#[from] anyhow::Error),
}

#[async_trait]
pub trait IdentityProvider: Send + Sync {
    fn id(&self) -> ProviderId;

    /// Where to send the browser to sign in.
    async fn authorize_url(&self, request: &AuthorizationRequest<'_>) -> Result<url::Url, SignInError>;

    /// Redeems the authorization code (with the PKCE verifier) and checks the answer,
    /// including that the ID token carries `nonce`.
    async fn identify(&self, code: &str, pkce_verifier: &str, nonce: &str) -> Result<ProviderIdentity, SignInError>;
}

/// The providers this server offers, in button order.
#[derive(Clone, Default)]
pub struct Providers {
    configured: Vec<Arc<dyn IdentityProvider>>,
    /// The sandbox identity provider's own endpoints (dev mode only).
    pub sandbox_issuer: Option<Arc<sandbox::SandboxIssuer>>,
}

impl Providers {
    /// `server_secret` seeds the sandbox provider's keys, so every node of a cluster signs alike.
    pub fn from_config(config: &Config, public_url: &str, server_secret: &str) -> anyhow::Result<Self> {
        let http = oidc::http_client()?;
        let settings = &config.sign_in;
        let mut configured: Vec<Arc<dyn IdentityProvider>> = Vec::new();
        if let Some(google) = &settings.google {
            let issuer = &settings.endpoints.google_issuer;
            configured.push(Arc::new(oidc::OidcProvider::google(google, issuer, public_url, http.clone())?));
        }
        if let Some(facebook) = &settings.facebook {
            let provider = facebook::FacebookProvider::new(facebook, &settings.endpoints, public_url, http.clone())?;
            configured.push(Arc::new(provider));
        }
        if let Some(apple) = &settings.apple {
            let issuer = &settings.endpoints.apple_issuer;
            configured.push(Arc::new(oidc::OidcProvider::apple(apple, issuer, public_url, http.clone())?));
        }
        let mut sandbox_issuer = None;
        if config.dev_mode {
            let issuer = Arc::new(sandbox::SandboxIssuer::new(public_url, server_secret)?);
            configured.push(Arc::new(oidc::OidcProvider::sandbox(&issuer, public_url, http)?));
            sandbox_issuer = Some(issuer);
        }
        Ok(Self { configured, sandbox_issuer })
    }

    pub fn list(&self) -> Vec<ProviderId> {
        self.configured.iter().map(|provider| provider.id()).collect()
    }

    pub fn get(&self, id: ProviderId) -> Option<Arc<dyn IdentityProvider>> {
        self.configured.iter().find(|provider| provider.id() == id).cloned()
    }
}

/// Where the provider sends the browser back to.
pub fn callback_url(public_url: &str, id: ProviderId) -> String {
    format!("{}/api/auth/oidc/{}/callback", public_url.trim_end_matches('/'), id.as_str())
}

/// A provider identity joins an existing account only through an address both sides have
/// proved: the provider says the person controls it, and the account confirmed it with us.
/// Anything less would let whoever controls a provider account take over ours.
pub fn may_link(identity: &ProviderIdentity, account_email_verified: bool) -> bool {
    identity.email_verified && account_email_verified
}

/// Where the app goes after signing in: a path on this site only (never `//host` or a URL),
/// so the start link cannot be used to send people elsewhere.
pub fn safe_redirect(requested: Option<&str>) -> String {
    match requested.map(str::trim) {
        Some(path)
            if path.starts_with('/')
                && !path.starts_with("//")
                && !path.contains('\\')
                && !path.chars().any(char::is_control)
                && path.len() <= 512 =>
        {
            path.to_owned()
        }
        _ => "/".to_owned(),
    }
}

/// First and last name for a new account: the provider's, else the whole name split at its
/// last space, else the address's local part.
pub fn names_for(identity: &ProviderIdentity, email: &str) -> (String, String) {
    let clean =
        |name: &Option<String>| name.as_deref().map(str::trim).filter(|name| !name.is_empty()).map(str::to_owned);
    match (clean(&identity.first_name), clean(&identity.last_name)) {
        (Some(first), Some(last)) => (first, last),
        (Some(whole), None) => match whole.rsplit_once(' ') {
            Some((first, last)) => (first.trim().to_owned(), last.trim().to_owned()),
            None => (whole, String::new()),
        },
        (None, Some(last)) => (email.split('@').next().unwrap_or(email).to_owned(), last),
        (None, None) => (email.split('@').next().unwrap_or(email).to_owned(), String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(email_verified: bool) -> ProviderIdentity {
        ProviderIdentity {
            subject: "sub-1".into(),
            email: Some("sam@example.com".into()),
            email_verified,
            first_name: None,
            last_name: None,
        }
    }

    #[test]
    fn linking_needs_both_sides_to_have_verified_the_address() {
        assert!(may_link(&identity(true), true));
        assert!(!may_link(&identity(true), false));
        assert!(!may_link(&identity(false), true));
        assert!(!may_link(&identity(false), false));
    }

    #[test]
    fn redirects_stay_on_this_site() {
        assert_eq!(safe_redirect(Some("/my-tasks?tab=open")), "/my-tasks?tab=open");
        for outside in ["//evil.example", "https://evil.example", "/\\evil.example", "evil", "", "/a\nb"] {
            assert_eq!(safe_redirect(Some(outside)), "/", "{outside:?}");
        }
        assert_eq!(safe_redirect(None), "/");
    }

    #[test]
    fn names_come_from_the_provider_or_the_address() {
        let mut person = identity(true);
        assert_eq!(names_for(&person, "sam@example.com"), ("sam".into(), String::new()));
        person.first_name = Some("Sam Taylor Lee".into());
        assert_eq!(names_for(&person, "sam@example.com"), ("Sam Taylor".into(), "Lee".into()));
        person.last_name = Some("Nguyen".into());
        assert_eq!(names_for(&person, "sam@example.com"), ("Sam Taylor Lee".into(), "Nguyen".into()));
    }

    #[test]
    fn provider_ids_round_trip() {
        for id in ProviderId::ALL {
            assert_eq!(ProviderId::parse(id.as_str()), Some(id));
        }
        assert_eq!(ProviderId::parse("github"), None);
    }
}
