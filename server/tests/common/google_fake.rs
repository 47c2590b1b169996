//! A fake Google OpenID Connect provider, shaped after Google's published reference
//! (developers.google.com/identity/openid-connect/reference and the OpenID Connect guide): the
//! discovery document, the authorization endpoint (redirecting back with `code`, `state`,
//! `scope`, `authuser`, `prompt` and, per RFC 9207, `iss`), the token endpoint (client secret in
//! the form or HTTP Basic, PKCE S256 or plain) answering `access_token`, `expires_in`, `scope`,
//! `token_type` and an RS256 `id_token` with `iss`, `azp`, `aud`, `sub`, `email`,
//! `email_verified`, `at_hash`, `nonce`, names, `iat` and `exp`, and the JWKS.
//! Errors are OAuth's `{"error", "error_description"}`.
#![allow(dead_code)]

use std::{collections::HashMap, sync::Arc};

use axum::{
    Json, Router,
    extract::{RawQuery, State},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use base64::{Engine, engine::general_purpose::STANDARD};
use serde_json::{Value, json};

use super::identity_fake::{
    Grant, Listening, Person, Provider, Refusal, assert_no_violations, at_hash, issuer_of, jwks, now_secs, params,
    random_token,
};

pub const CLIENT_ID: &str = "123456789012-taskhubtest.apps.googleusercontent.com";
pub const CLIENT_SECRET: &str = "GOCSPX-taskhub-test-secret";

pub struct FakeGoogle {
    pub provider: Arc<Provider>,
    server: Listening,
}

impl FakeGoogle {
    pub async fn start() -> Self {
        let provider = Arc::new(Provider::default());
        // The issuer is this server's own address, known once it listens; the routes read it
        // from the Host the client used.
        let router = Router::new()
            .route("/.well-known/openid-configuration", get(discovery))
            .route("/o/oauth2/v2/auth", get(authorize))
            .route("/token", post(token))
            .route("/oauth2/v3/certs", get(|| async { Json(jwks()) }))
            .with_state(provider.clone());
        let server = Listening::start(router).await;
        Self { provider, server }
    }

    /// `GOOGLE_ISSUER_URL` for the server under test.
    pub fn issuer(&self) -> String {
        self.server.base_url.clone()
    }

    /// Registers the server's callback as the client's one redirect URI (the Cloud console step).
    pub fn register_redirect(&self, redirect_uri: String) {
        *self.provider.registered_redirect.lock().unwrap() = Some(redirect_uri);
    }

    pub fn sign_in_next(&self, person: Person) {
        self.provider.sign_in_next(person);
    }
}

impl Drop for FakeGoogle {
    fn drop(&mut self) {
        assert_no_violations("Google", &self.provider);
    }
}

async fn discovery(headers: HeaderMap) -> Json<Value> {
    let issuer = issuer_of(&headers);
    Json(json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/o/oauth2/v2/auth"),
        "device_authorization_endpoint": format!("{issuer}/device/code"),
        "token_endpoint": format!("{issuer}/token"),
        "userinfo_endpoint": format!("{issuer}/v1/userinfo"),
        "revocation_endpoint": format!("{issuer}/revoke"),
        "jwks_uri": format!("{issuer}/oauth2/v3/certs"),
        "response_types_supported": ["code", "token", "id_token", "code token", "code id_token",
            "token id_token", "code token id_token", "none"],
        "response_modes_supported": ["query", "fragment", "form_post"],
        "authorization_response_iss_parameter_supported": true,
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "email", "profile"],
        "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
        "claims_supported": ["aud", "email", "email_verified", "exp", "family_name", "given_name", "iat",
            "iss", "name", "picture", "sub"],
        "code_challenge_methods_supported": ["plain", "S256"],
        "grant_types_supported": ["authorization_code", "refresh_token",
            "urn:ietf:params:oauth:grant-type:device_code", "urn:ietf:params:oauth:grant-type:jwt-bearer"],
    }))
}

/// Google shows its own error page (no redirect) for a request it cannot trust.
fn error_page(error: &str) -> Response {
    (StatusCode::BAD_REQUEST, format!("Access blocked: Error 400: {error}")).into_response()
}

async fn authorize(State(provider): State<Arc<Provider>>, headers: HeaderMap, RawQuery(query): RawQuery) -> Response {
    let query = params(query.as_deref().unwrap_or_default());
    let get = |key: &str| query.get(key).cloned().unwrap_or_default();
    if get("client_id") != CLIENT_ID {
        return error_page("invalid_client");
    }
    if !provider.redirect_registered(&get("redirect_uri")) {
        return error_page("redirect_uri_mismatch");
    }
    if get("response_type") != "code" {
        return error_page("unsupported_response_type");
    }
    let scope = get("scope");
    if !scope.split(' ').any(|scope| scope == "openid") {
        return error_page("invalid_scope");
    }
    let challenge = query.get("code_challenge").map(|challenge| {
        (challenge.clone(), query.get("code_challenge_method").cloned().unwrap_or_else(|| "plain".into()))
    });
    if challenge.as_ref().is_some_and(|(_, method)| method != "S256" && method != "plain") {
        return error_page("invalid_request");
    }
    let Some(code) = provider.approve(|person| Grant {
        client_id: get("client_id"),
        redirect_uri: get("redirect_uri"),
        challenge,
        nonce: query.get("nonce").cloned(),
        scope: scope.clone(),
        person,
        used: false,
    }) else {
        return error_page("no one signs in at the fake Google: call sign_in_next first");
    };
    let mut back = url::Url::parse(&get("redirect_uri")).unwrap();
    back.query_pairs_mut()
        .append_pair("state", &get("state"))
        .append_pair("iss", &issuer_of(&headers))
        .append_pair("code", &code)
        .append_pair("scope", &scope)
        .append_pair("authuser", "0")
        .append_pair("prompt", "consent");
    (StatusCode::FOUND, [(header::LOCATION, back.to_string())]).into_response()
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    (status, Json(json!({ "error": error, "error_description": description }))).into_response()
}

/// The client's credentials: `client_secret_post` or `client_secret_basic`, never both.
fn client_credentials(headers: &HeaderMap, form: &HashMap<String, String>) -> Option<(String, String)> {
    let basic = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok()?.strip_prefix("Basic ").map(str::to_owned))
        .and_then(|encoded| String::from_utf8(STANDARD.decode(encoded).ok()?).ok())
        .and_then(|pair| pair.split_once(':').map(|(id, secret)| (id.to_owned(), secret.to_owned())));
    let posted =
        form.get("client_secret").map(|secret| (form.get("client_id").cloned().unwrap_or_default(), secret.clone()));
    match (basic, posted) {
        (Some(_), Some(_)) => None,
        (basic, posted) => basic.or(posted),
    }
}

async fn token(State(provider): State<Arc<Provider>>, headers: HeaderMap, body: String) -> Response {
    let form = params(&body);
    provider.token_requests.lock().unwrap().push(form.clone());
    if form.get("grant_type").map(String::as_str) != Some("authorization_code") {
        return oauth_error(StatusCode::BAD_REQUEST, "unsupported_grant_type", "Invalid grant_type");
    }
    match client_credentials(&headers, &form) {
        Some((id, secret)) if id == CLIENT_ID && secret == CLIENT_SECRET => {}
        _ => return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", "Unauthorized"),
    }
    let code = form.get("code").map(String::as_str).unwrap_or_default();
    let grant = match provider.redeem(
        code,
        CLIENT_ID,
        form.get("redirect_uri").map(String::as_str),
        form.get("code_verifier").map(String::as_str),
    ) {
        Ok(grant) => grant,
        Err(Refusal::InvalidGrant(why)) => return oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", why),
        Err(Refusal::InvalidRequest(why)) => return oauth_error(StatusCode::BAD_REQUEST, "invalid_request", why),
    };
    let access_token = random_token("ya29");
    let now = now_secs();
    let person = &grant.person;
    let mut claims = json!({
        "iss": issuer_of(&headers),
        "azp": CLIENT_ID,
        "aud": CLIENT_ID,
        "sub": person.subject,
        "at_hash": at_hash(&access_token),
        "iat": now,
        "exp": now + 3599,
    });
    if let Some(nonce) = &grant.nonce {
        claims["nonce"] = json!(nonce);
    }
    let scopes: Vec<&str> = grant.scope.split(' ').collect();
    if scopes.contains(&"email")
        && let Some(email) = &person.email
    {
        claims["email"] = json!(email);
        claims["email_verified"] = json!(person.email_verified);
    }
    if scopes.contains(&"profile") {
        claims["name"] = json!(format!("{} {}", person.first_name, person.last_name));
        claims["given_name"] = json!(person.first_name);
        claims["family_name"] = json!(person.last_name);
        claims["picture"] = json!("https://lh3.googleusercontent.com/a/fake-picture");
    }
    Json(json!({
        "access_token": access_token,
        "expires_in": 3599,
        "scope": grant.scope,
        "token_type": "Bearer",
        "id_token": provider.id_token(&claims, CLIENT_SECRET),
    }))
    .into_response()
}
