//! Facebook Login for the web: OAuth 2 authorization code with PKCE (`oauth2`), then the Graph
//! API's `me?fields=id,first_name,last_name,email` with the access token and its
//! `appsecret_proof`. Facebook issues no ID token here, so there is no nonce to check; `state`
//! and PKCE bind the answer to the sign-in that asked for it.

use anyhow::Context;
use async_trait::async_trait;
use hmac::{Hmac, Mac};
use oauth2::{
    AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointNotSet, EndpointSet,
    PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope, StandardRevocableToken, TokenResponse, TokenUrl,
    basic::{
        BasicClient, BasicErrorResponse, BasicRevocationErrorResponse, BasicTokenIntrospectionResponse,
        BasicTokenResponse,
    },
};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::signin::{
    AuthorizationRequest, IdentityProvider, ProviderId, ProviderIdentity, SignInError, callback_url,
    settings::{ClientCredentials, ProviderEndpoints},
};

pub struct FacebookProvider {
    client_id: String,
    client_secret: String,
    redirect: String,
    dialog_url: AuthUrl,
    token_url: TokenUrl,
    me_url: String,
    http: reqwest::Client,
}

/// Facebook refuses a code in the Graph API's error shape (`{"error": {"message", "type",
/// "code", "error_subcode"}}`, status 400), not OAuth's `{"error": "invalid_grant"}`; read as
/// OAuth's alone, a refused code would look like an unreadable answer, an outage.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
enum TokenRefusal {
    Graph { error: GraphError },
    OAuth(BasicErrorResponse),
}

#[derive(Clone, Debug, Deserialize, Serialize)]
struct GraphError {
    #[serde(default)]
    message: String,
    #[serde(default)]
    code: i64,
    #[serde(default)]
    error_subcode: Option<i64>,
}

impl std::fmt::Display for TokenRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Graph { error } => {
                write!(f, "{} (code {}", error.message, error.code)?;
                if let Some(subcode) = error.error_subcode {
                    write!(f, ", subcode {subcode}")?;
                }
                f.write_str(")")
            }
            Self::OAuth(error) => error.fmt(f),
        }
    }
}

impl oauth2::ErrorResponse for TokenRefusal {}

/// The `oauth2` client for the code exchange, reading refusals as [`TokenRefusal`].
type TokenClient = oauth2::Client<
    TokenRefusal,
    BasicTokenResponse,
    BasicTokenIntrospectionResponse,
    StandardRevocableToken,
    BasicRevocationErrorResponse,
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointSet,
>;

#[derive(Deserialize)]
struct Me {
    id: String,
    email: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
}

impl FacebookProvider {
    pub fn new(
        credentials: &ClientCredentials,
        endpoints: &ProviderEndpoints,
        public_url: &str,
        http: reqwest::Client,
    ) -> anyhow::Result<Self> {
        let graph = endpoints.facebook_graph.trim_end_matches('/');
        Ok(Self {
            client_id: credentials.client_id.clone(),
            client_secret: credentials.client_secret.expose().to_owned(),
            redirect: callback_url(public_url, ProviderId::Facebook),
            dialog_url: AuthUrl::new(endpoints.facebook_dialog.clone()).context("FACEBOOK_DIALOG_URL")?,
            token_url: TokenUrl::new(format!("{graph}/oauth/access_token")).context("FACEBOOK_GRAPH_URL")?,
            me_url: format!("{graph}/me"),
            http,
        })
    }

    /// Proof that a Graph call comes from the app's server, not from a leaked token elsewhere.
    fn appsecret_proof(&self, access_token: &str) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(self.client_secret.as_bytes()).expect("HMAC takes any key length");
        mac.update(access_token.as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }
}

#[async_trait]
impl IdentityProvider for FacebookProvider {
    fn id(&self) -> ProviderId {
        ProviderId::Facebook
    }

    async fn authorize_url(&self, request: &AuthorizationRequest<'_>) -> Result<url::Url, SignInError> {
        let client = BasicClient::new(ClientId::new(self.client_id.clone()))
            .set_auth_uri(self.dialog_url.clone())
            .set_redirect_uri(RedirectUrl::new(self.redirect.clone()).context("callback URL")?);
        let state = request.state.to_owned();
        let challenge =
            PkceCodeChallenge::from_code_verifier_sha256(&PkceCodeVerifier::new(request.pkce_verifier.to_owned()));
        let (url, _) = client
            .authorize_url(move || CsrfToken::new(state))
            .add_scope(Scope::new("email".into()))
            .add_scope(Scope::new("public_profile".into()))
            .set_pkce_challenge(challenge)
            .url();
        Ok(url)
    }

    async fn identify(&self, code: &str, pkce_verifier: &str, _nonce: &str) -> Result<ProviderIdentity, SignInError> {
        let client: TokenClient = oauth2::Client::new(ClientId::new(self.client_id.clone()))
            .set_client_secret(ClientSecret::new(self.client_secret.clone()))
            .set_auth_uri(self.dialog_url.clone())
            .set_token_uri(self.token_url.clone())
            .set_redirect_uri(RedirectUrl::new(self.redirect.clone()).context("callback URL")?)
            .set_auth_type(AuthType::RequestBody);
        let tokens = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .set_pkce_verifier(PkceCodeVerifier::new(pkce_verifier.to_owned()))
            .request_async(&self.http)
            .await
            .map_err(|error| match error {
                oauth2::RequestTokenError::ServerResponse(refusal) => {
                    SignInError::NotConfirmed(format!("Facebook refused the code: {refusal}"))
                }
                other => SignInError::Unavailable(anyhow::anyhow!("redeeming the Facebook code: {other}")),
            })?;
        let access_token = tokens.access_token().secret();
        let me: Me = self
            .http
            .get(&self.me_url)
            .query(&[
                ("fields", "id,first_name,last_name,email"),
                ("access_token", access_token.as_str()),
                ("appsecret_proof", self.appsecret_proof(access_token).as_str()),
            ])
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .context("asking Facebook who signed in")?
            .json()
            .await
            .context("reading Facebook's answer")?;
        Ok(ProviderIdentity {
            subject: me.id,
            // Facebook's Graph API says nothing of whether it verified the address (an account
            // made with a phone number can carry an address nobody confirmed), so it counts as
            // unverified: it links to no existing account and makes a new one only once our own
            // mail to it is answered (security review 3).
            email_verified: false,
            email: me.email,
            first_name: me.first_name,
            last_name: me.last_name,
        })
    }
}
