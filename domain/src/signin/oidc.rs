//! OpenID Connect providers (Google, Apple and the sandbox) through the `openidconnect` crate:
//! discovery (cached), the authorization-code flow with PKCE and `nonce`, and the ID token's
//! signature, issuer, audience, expiry and nonce checked before anything of it is believed.

use std::time::{Duration, Instant};

use anyhow::Context;
use async_trait::async_trait;
use openidconnect::{
    AuthType, AuthenticationFlow, AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl, LocalizedClaim,
    Nonce, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope, TokenResponse,
    core::{CoreClient, CoreJwsSigningAlgorithm, CoreProviderMetadata, CoreResponseType},
};
use tokio::sync::Mutex;

use crate::signin::{
    AuthorizationRequest, IdentityProvider, ProviderId, ProviderIdentity, SignInError,
    apple::AppleClientSecret,
    callback_url,
    sandbox::SandboxIssuer,
    settings::{AppleCredentials, ClientCredentials},
};

/// Providers rotate their signing keys; fetch the discovery document and keys again this often.
const METADATA_TTL: Duration = Duration::from_secs(10 * 60);

/// The client for provider calls: no redirects followed, a bounded wait.
pub fn http_client() -> anyhow::Result<reqwest::Client> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(10))
        .build()
        .context("building the sign-in HTTP client")
}

enum ClientSecretSource {
    Static(ClientSecret),
    Apple(AppleClientSecret),
}

pub struct OidcProvider {
    id: ProviderId,
    issuer: IssuerUrl,
    client_id: ClientId,
    secret: ClientSecretSource,
    redirect: RedirectUrl,
    /// Apple sends the person back with a form POST when names or email are asked for.
    form_post: bool,
    http: reqwest::Client,
    metadata: Mutex<Option<(Instant, CoreProviderMetadata)>>,
}

impl OidcProvider {
    pub fn google(
        credentials: &ClientCredentials,
        issuer: &str,
        public_url: &str,
        http: reqwest::Client,
    ) -> anyhow::Result<Self> {
        let secret = ClientSecretSource::Static(ClientSecret::new(credentials.client_secret.expose().to_owned()));
        Self::new(ProviderId::Google, issuer, &credentials.client_id, secret, public_url, http)
    }

    pub fn apple(
        credentials: &AppleCredentials,
        issuer: &str,
        public_url: &str,
        http: reqwest::Client,
    ) -> anyhow::Result<Self> {
        let secret = ClientSecretSource::Apple(AppleClientSecret::new(credentials)?);
        let mut provider = Self::new(ProviderId::Apple, issuer, &credentials.client_id, secret, public_url, http)?;
        provider.form_post = true;
        Ok(provider)
    }

    pub fn sandbox(issuer: &SandboxIssuer, public_url: &str, http: reqwest::Client) -> anyhow::Result<Self> {
        let secret = ClientSecretSource::Static(ClientSecret::new(issuer.client_secret().to_owned()));
        Self::new(ProviderId::Sandbox, issuer.issuer_url(), issuer.client_id(), secret, public_url, http)
    }

    fn new(
        id: ProviderId,
        issuer: &str,
        client_id: &str,
        secret: ClientSecretSource,
        public_url: &str,
        http: reqwest::Client,
    ) -> anyhow::Result<Self> {
        Ok(Self {
            id,
            issuer: IssuerUrl::new(issuer.to_owned()).context("issuer URL")?,
            client_id: ClientId::new(client_id.to_owned()),
            secret,
            redirect: RedirectUrl::new(callback_url(public_url, id)).context("callback URL")?,
            form_post: false,
            http,
            metadata: Mutex::new(None),
        })
    }

    async fn metadata(&self) -> Result<CoreProviderMetadata, SignInError> {
        let mut cached = self.metadata.lock().await;
        if let Some((fetched, metadata)) = cached.as_ref()
            && fetched.elapsed() < METADATA_TTL
        {
            return Ok(metadata.clone());
        }
        let metadata = CoreProviderMetadata::discover_async(self.issuer.clone(), &self.http)
            .await
            .with_context(|| format!("discovering the {} OpenID provider", self.id.display_name()))?;
        *cached = Some((Instant::now(), metadata.clone()));
        Ok(metadata)
    }

    fn client_secret(&self) -> Result<ClientSecret, SignInError> {
        match &self.secret {
            ClientSecretSource::Static(secret) => Ok(secret.clone()),
            ClientSecretSource::Apple(apple) => Ok(ClientSecret::new(apple.sign()?)),
        }
    }
}

#[async_trait]
impl IdentityProvider for OidcProvider {
    fn id(&self) -> ProviderId {
        self.id
    }

    async fn authorize_url(&self, request: &AuthorizationRequest<'_>) -> Result<url::Url, SignInError> {
        let metadata = self.metadata().await?;
        let client = CoreClient::from_provider_metadata(metadata, self.client_id.clone(), None)
            .set_redirect_uri(self.redirect.clone());
        let state = request.state.to_owned();
        let nonce = request.nonce.to_owned();
        let challenge =
            PkceCodeChallenge::from_code_verifier_sha256(&PkceCodeVerifier::new(request.pkce_verifier.to_owned()));
        let mut authorize = client
            .authorize_url(
                AuthenticationFlow::<CoreResponseType>::AuthorizationCode,
                move || CsrfToken::new(state),
                move || Nonce::new(nonce),
            )
            .add_scope(Scope::new("email".into()))
            .set_pkce_challenge(challenge);
        authorize = if self.form_post {
            authorize.add_scope(Scope::new("name".into())).add_extra_param("response_mode", "form_post")
        } else {
            authorize.add_scope(Scope::new("profile".into()))
        };
        let (url, _, _) = authorize.url();
        Ok(url)
    }

    async fn identify(&self, code: &str, pkce_verifier: &str, nonce: &str) -> Result<ProviderIdentity, SignInError> {
        let metadata = self.metadata().await?;
        let client = CoreClient::from_provider_metadata(metadata, self.client_id.clone(), Some(self.client_secret()?))
            .set_redirect_uri(self.redirect.clone())
            // Every provider here takes the client's credentials in the form (Apple only that way).
            .set_auth_type(AuthType::RequestBody);
        let tokens = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .context("the provider names no token endpoint")?
            .set_pkce_verifier(PkceCodeVerifier::new(pkce_verifier.to_owned()))
            .request_async(&self.http)
            .await
            .map_err(|error| match error {
                openidconnect::RequestTokenError::ServerResponse(refusal) => {
                    SignInError::NotConfirmed(format!("the token endpoint refused the code: {refusal}"))
                }
                other => SignInError::Unavailable(anyhow::anyhow!("redeeming the code: {other}")),
            })?;
        let id_token = tokens.id_token().ok_or_else(|| SignInError::NotConfirmed("no ID token".into()))?;
        // Google and Apple sign with RS256, the sandbox with ES256; either way with a key from
        // the provider's own JWKS.
        let verifier = client.id_token_verifier().set_allowed_algs([
            CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256,
            CoreJwsSigningAlgorithm::EcdsaP256Sha256,
        ]);
        let claims = id_token
            .claims(&verifier, &Nonce::new(nonce.to_owned()))
            .map_err(|error| SignInError::NotConfirmed(format!("ID token: {error}")))?;
        Ok(ProviderIdentity {
            subject: claims.subject().as_str().to_owned(),
            email: claims.email().map(|email| email.as_str().to_owned()),
            email_verified: claims.email_verified().unwrap_or(false),
            first_name: default_locale(claims.given_name())
                .map(|name| name.as_str().to_owned())
                .or_else(|| default_locale(claims.name()).map(|name| name.as_str().to_owned())),
            last_name: default_locale(claims.family_name()).map(|name| name.as_str().to_owned()),
        })
    }
}

/// A claim in the provider's default language.
fn default_locale<T>(claim: Option<&LocalizedClaim<T>>) -> Option<&T> {
    claim.and_then(|claim| claim.get(None))
}
