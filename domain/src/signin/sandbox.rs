//! The sandbox identity provider (dev mode): a small OpenID provider this server runs at
//! `/sandbox/oidc`, so `make run` and the browser tests sign in through the very client code
//! Google's sign-in uses. Its authorization page lets you pick or type an email and name; it
//! answers with an authorization code, and its token endpoint checks the PKCE verifier and the
//! client before issuing an ES256-signed ID token carrying the nonce.
//!
//! Codes are signed rather than stored (any node can redeem them) and each works once per node.
//! Keys derive from the server secret, so every node of a cluster signs and verifies alike.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use dashmap::DashMap;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use p256::{SecretKey, pkcs8::EncodePrivateKey};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::signin::{ProviderId, callback_url};

const CLIENT_ID: &str = "taskhub-sandbox";
const KEY_ID: &str = "sandbox-1";
const CODE_TTL: Duration = Duration::from_secs(120);
const ID_TOKEN_TTL: Duration = Duration::from_secs(600);

pub struct SandboxIssuer {
    issuer: String,
    client_secret: String,
    redirect_uri: String,
    signing_key: EncodingKey,
    jwk: Value,
    code_key: Vec<u8>,
    redeemed_codes: DashMap<String, u64>,
}

/// What the authorization page was asked for (the query of `/sandbox/oidc/authorize`).
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct AuthorizeParams {
    pub response_type: String,
    pub client_id: String,
    pub redirect_uri: String,
    pub scope: String,
    pub state: String,
    pub nonce: String,
    pub code_challenge: String,
    pub code_challenge_method: String,
}

/// The person the page's form names.
pub struct SandboxPerson<'a> {
    pub email: &'a str,
    pub name: &'a str,
    pub email_verified: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TokenForm {
    pub grant_type: String,
    pub code: String,
    pub redirect_uri: String,
    pub code_verifier: String,
    pub client_id: String,
    pub client_secret: String,
}

#[derive(Serialize, Deserialize)]
struct CodeClaims {
    jti: String,
    exp: u64,
    email: String,
    name: String,
    email_verified: bool,
    nonce: String,
    code_challenge: String,
    redirect_uri: String,
}

/// An OAuth error answer (RFC 6749 §5.2).
#[derive(Debug, PartialEq, Eq)]
pub struct TokenError {
    pub error: &'static str,
    pub description: &'static str,
}

impl SandboxIssuer {
    pub fn new(public_url: &str, server_secret: &str) -> anyhow::Result<Self> {
        let derive = |purpose: &str| Sha256::new().chain_update(purpose).chain_update(server_secret).finalize();
        let secret_key = SecretKey::from_slice(&derive("taskhub sandbox oidc signing key"))
            .context("deriving the sandbox signing key")?;
        let der = secret_key.to_pkcs8_der().context("encoding the sandbox signing key")?;
        let point = p256::EncodedPoint::from(secret_key.public_key());
        let jwk = json!({
            "kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": KEY_ID,
            "x": URL_SAFE_NO_PAD.encode(point.x().context("sandbox key point")?),
            "y": URL_SAFE_NO_PAD.encode(point.y().context("sandbox key point")?),
        });
        Ok(Self {
            issuer: format!("{}/sandbox/oidc", public_url.trim_end_matches('/')),
            client_secret: hex::encode(derive("taskhub sandbox oidc client secret")),
            redirect_uri: callback_url(public_url, ProviderId::Sandbox),
            signing_key: EncodingKey::from_ec_der(der.as_bytes()),
            jwk,
            code_key: derive("taskhub sandbox oidc codes").to_vec(),
            redeemed_codes: DashMap::new(),
        })
    }

    pub fn issuer_url(&self) -> &str {
        &self.issuer
    }

    pub fn client_id(&self) -> &str {
        CLIENT_ID
    }

    pub fn client_secret(&self) -> &str {
        &self.client_secret
    }

    /// The OpenID discovery document (`/.well-known/openid-configuration`).
    pub fn discovery(&self) -> Value {
        let issuer = &self.issuer;
        json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{issuer}/authorize"),
            "token_endpoint": format!("{issuer}/token"),
            "jwks_uri": format!("{issuer}/jwks"),
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256"],
            "scopes_supported": ["openid", "email", "profile"],
            "token_endpoint_auth_methods_supported": ["client_secret_post"],
            "code_challenge_methods_supported": ["S256"],
            "claims_supported": ["sub", "email", "email_verified", "name", "given_name", "family_name", "nonce"],
        })
    }

    pub fn jwks(&self) -> Value {
        json!({ "keys": [self.jwk] })
    }

    /// Why the authorization request cannot be served, if it cannot.
    pub fn check_authorize(&self, params: &AuthorizeParams) -> Result<(), &'static str> {
        if params.client_id != CLIENT_ID {
            return Err("Unknown client_id.");
        }
        if params.redirect_uri != self.redirect_uri {
            return Err("This redirect_uri is not registered for the client.");
        }
        if params.response_type != "code" {
            return Err("Only response_type=code is supported.");
        }
        if params.code_challenge.is_empty() || params.code_challenge_method != "S256" {
            return Err("PKCE with code_challenge_method=S256 is required.");
        }
        if params.state.is_empty() || params.nonce.is_empty() {
            return Err("state and nonce are required.");
        }
        Ok(())
    }

    /// The redirect back to the client with a code for `person`.
    pub fn approve(&self, params: &AuthorizeParams, person: &SandboxPerson<'_>) -> anyhow::Result<String> {
        let claims = CodeClaims {
            jti: crate::auth::secrets::new_token(),
            exp: now_secs() + CODE_TTL.as_secs(),
            email: person.email.to_owned(),
            name: person.name.to_owned(),
            email_verified: person.email_verified,
            nonce: params.nonce.clone(),
            code_challenge: params.code_challenge.clone(),
            redirect_uri: params.redirect_uri.clone(),
        };
        let code =
            jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &EncodingKey::from_secret(&self.code_key))
                .context("signing a sandbox code")?;
        let mut url = url::Url::parse(&params.redirect_uri).context("redirect URI")?;
        url.query_pairs_mut().append_pair("code", &code).append_pair("state", &params.state);
        Ok(url.into())
    }

    /// Where "Cancel" sends the person: back to the client with `access_denied`.
    pub fn deny(&self, params: &AuthorizeParams) -> anyhow::Result<String> {
        let mut url = url::Url::parse(&params.redirect_uri).context("redirect URI")?;
        url.query_pairs_mut().append_pair("error", "access_denied").append_pair("state", &params.state);
        Ok(url.into())
    }

    /// The token endpoint: a code, once, by its client, with the verifier of its challenge.
    pub fn redeem(&self, form: &TokenForm) -> Result<Value, TokenError> {
        let invalid_client = TokenError { error: "invalid_client", description: "Unknown client or wrong secret." };
        let invalid_grant = |description| TokenError { error: "invalid_grant", description };
        if form.grant_type != "authorization_code" {
            return Err(TokenError { error: "unsupported_grant_type", description: "Only authorization_code." });
        }
        if form.client_id != CLIENT_ID
            || !constant_time_eq(form.client_secret.as_bytes(), self.client_secret.as_bytes())
        {
            return Err(invalid_client);
        }
        let mut validation = Validation::new(Algorithm::HS256);
        validation.required_spec_claims = ["exp".to_owned()].into();
        validation.leeway = 0;
        let claims =
            jsonwebtoken::decode::<CodeClaims>(&form.code, &DecodingKey::from_secret(&self.code_key), &validation)
                .map_err(|_| invalid_grant("The code is invalid or has expired."))?
                .claims;
        if form.redirect_uri != claims.redirect_uri {
            return Err(invalid_grant("redirect_uri differs from the authorization request's."));
        }
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(form.code_verifier.as_bytes()));
        if form.code_verifier.is_empty() || challenge != claims.code_challenge {
            return Err(invalid_grant("The PKCE code_verifier does not match the code_challenge."));
        }
        let now = now_secs();
        self.redeemed_codes.retain(|_, expires| *expires > now);
        if self.redeemed_codes.insert(claims.jti.clone(), claims.exp).is_some() {
            return Err(invalid_grant("The code was already used."));
        }
        let id_token = self.id_token(&claims, now).map_err(|error| {
            tracing::error!(error = ?error, "could not sign a sandbox ID token");
            TokenError { error: "server_error", description: "Could not sign the ID token." }
        })?;
        Ok(json!({
            "access_token": crate::auth::secrets::new_token(),
            "token_type": "Bearer",
            "expires_in": ID_TOKEN_TTL.as_secs(),
            "id_token": id_token,
        }))
    }

    fn id_token(&self, code: &CodeClaims, now: u64) -> anyhow::Result<String> {
        let (given, family) = match code.name.trim().rsplit_once(' ') {
            Some((given, family)) => (given.trim(), family.trim()),
            None => (code.name.trim(), ""),
        };
        let mut claims = json!({
            "iss": self.issuer,
            "sub": subject_for(&code.email),
            "aud": CLIENT_ID,
            "iat": now,
            "exp": now + ID_TOKEN_TTL.as_secs(),
            "nonce": code.nonce,
            "email": code.email,
            "email_verified": code.email_verified,
        });
        if !given.is_empty() {
            claims["name"] = json!(code.name.trim());
            claims["given_name"] = json!(given);
        }
        if !family.is_empty() {
            claims["family_name"] = json!(family);
        }
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(KEY_ID.into());
        jsonwebtoken::encode(&header, &claims, &self.signing_key).context("signing a sandbox ID token")
    }
}

/// The sandbox's stable subject for an address: the same person each time they pick it.
pub fn subject_for(email: &str) -> String {
    let digest = Sha256::digest(email.trim().to_lowercase().as_bytes());
    format!("sandbox-{}", &hex::encode(digest)[..24])
}

fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|since| since.as_secs()).unwrap_or_default()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issuer() -> SandboxIssuer {
        SandboxIssuer::new("http://127.0.0.1:9", "a server secret of some length").unwrap()
    }

    fn params(verifier: &str) -> AuthorizeParams {
        AuthorizeParams {
            response_type: "code".into(),
            client_id: CLIENT_ID.into(),
            redirect_uri: "http://127.0.0.1:9/api/auth/oidc/sandbox/callback".into(),
            scope: "openid email".into(),
            state: "s".into(),
            nonce: "n".into(),
            code_challenge: URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())),
            code_challenge_method: "S256".into(),
        }
    }

    fn token_form(issuer: &SandboxIssuer, params: &AuthorizeParams, verifier: &str) -> TokenForm {
        let redirect = issuer
            .approve(params, &SandboxPerson { email: "sam@example.com", name: "Sam Lee", email_verified: true })
            .unwrap();
        let code =
            url::Url::parse(&redirect).unwrap().query_pairs().find(|(key, _)| key == "code").unwrap().1.into_owned();
        TokenForm {
            grant_type: "authorization_code".into(),
            code,
            redirect_uri: params.redirect_uri.clone(),
            code_verifier: verifier.into(),
            client_id: CLIENT_ID.into(),
            client_secret: issuer.client_secret().into(),
        }
    }

    #[test]
    fn a_code_is_redeemed_once_with_its_verifier() {
        let issuer = issuer();
        let params = params("the verifier of this sign-in, long enough");
        let form = token_form(&issuer, &params, "the verifier of this sign-in, long enough");
        assert!(issuer.redeem(&form).unwrap()["id_token"].is_string());
        assert_eq!(issuer.redeem(&form).unwrap_err().error, "invalid_grant");
    }

    #[test]
    fn a_wrong_verifier_or_secret_is_refused() {
        let issuer = issuer();
        let params = params("the verifier of this sign-in, long enough");
        let mut form = token_form(&issuer, &params, "another verifier altogether, long enough");
        assert_eq!(issuer.redeem(&form).unwrap_err().error, "invalid_grant");
        form.client_secret = "guess".into();
        assert_eq!(issuer.redeem(&form).unwrap_err().error, "invalid_client");
    }

    #[test]
    fn only_the_registered_redirect_and_pkce_are_served() {
        let issuer = issuer();
        let mut request = params("v");
        assert!(issuer.check_authorize(&request).is_ok());
        request.redirect_uri = "https://evil.example/cb".into();
        assert!(issuer.check_authorize(&request).is_err());
        let mut request = params("v");
        request.code_challenge_method = "plain".into();
        assert!(issuer.check_authorize(&request).is_err());
    }
}
