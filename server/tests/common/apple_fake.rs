//! A fake Sign in with Apple, shaped after Apple's REST API documentation ("Request an
//! authorization to the Sign in with Apple server", "Generate and validate tokens", "Authenticating
//! users with Sign in with Apple"): the discovery document and JWKS (`/auth/keys`); an authorization
//! endpoint that insists on `response_mode=form_post` when `name` or `email` is asked for and
//! answers with a self-submitting form POST of `code`, `state` and, on the person's first
//! authorization only, `user` (`{"name":{"firstName","lastName"},"email"}`); and a token endpoint
//! whose `client_secret` must be an ES256 JWT signed with the team's key (header `kid` = the key
//! id; `iss` = team id, `sub` = the client id, `aud` = `https://appleid.apple.com`, `iat`/`exp` at
//! most six months apart). Its RS256 ID token carries `email_verified` and `is_private_email` as
//! the strings Apple may send, `nonce_supported` and `real_user_status`, and no name.
//! PKCE is honoured when the authorization request carried a challenge. Errors: `{"error"}`.
#![allow(dead_code)]

use std::{
    collections::HashSet,
    sync::{Arc, Mutex},
};

use axum::{
    Json, Router,
    extract::{RawQuery, State},
    http::{HeaderMap, StatusCode, header},
    response::{Html, IntoResponse, Response},
    routing::{get, post},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use p256::{SecretKey, pkcs8::EncodePrivateKey};
use serde_json::{Value, json};

use super::identity_fake::{
    Grant, Listening, Person, Provider, Refusal, assert_no_violations, at_hash, issuer_of, jwks, now_secs, params,
    random_token,
};

pub const CLIENT_ID: &str = "com.example.taskhub.web";
pub const TEAM_ID: &str = "TEAM123456";
pub const KEY_ID: &str = "KEY1234567";
/// The audience of every client secret, whichever server is asked.
const CLIENT_SECRET_AUDIENCE: &str = "https://appleid.apple.com";
const SIX_MONTHS: u64 = 15_777_000;

pub struct FakeApple {
    pub provider: Arc<Provider>,
    state: Arc<AppleState>,
    server: Listening,
}

struct AppleState {
    provider: Arc<Provider>,
    team_key: DecodingKey,
    /// Apple sends the `user` JSON only on a person's first authorization of the app.
    authorized_before: Mutex<HashSet<String>>,
}

impl FakeApple {
    /// Apple issues the team's key (`APPLE_PRIVATE_KEY`, the `.p8`): returns the fake and the
    /// PEM to configure the server under test with.
    pub async fn start() -> (Self, String) {
        let team_key = SecretKey::random(&mut rand::rngs::OsRng);
        let pem = team_key.to_pkcs8_pem(Default::default()).unwrap().to_string();
        let point = p256::EncodedPoint::from(team_key.public_key());
        let public = DecodingKey::from_ec_components(
            &URL_SAFE_NO_PAD.encode(point.x().unwrap()),
            &URL_SAFE_NO_PAD.encode(point.y().unwrap()),
        )
        .unwrap();
        let provider = Arc::new(Provider::default());
        let state =
            Arc::new(AppleState { provider: provider.clone(), team_key: public, authorized_before: Mutex::default() });
        let router = Router::new()
            .route("/.well-known/openid-configuration", get(discovery))
            .route("/auth/authorize", get(authorize))
            .route("/auth/token", post(token))
            .route("/auth/keys", get(|| async { Json(jwks()) }))
            .with_state(state.clone());
        let server = Listening::start(router).await;
        (Self { provider, state, server }, pem)
    }

    /// `APPLE_ISSUER_URL` for the server under test.
    pub fn issuer(&self) -> String {
        self.server.base_url.clone()
    }

    /// The Services ID's one registered return URL.
    pub fn register_redirect(&self, redirect_uri: String) {
        *self.provider.registered_redirect.lock().unwrap() = Some(redirect_uri);
    }

    pub fn sign_in_next(&self, person: Person) {
        self.provider.sign_in_next(person);
    }
}

impl Drop for FakeApple {
    fn drop(&mut self) {
        assert_no_violations("Apple", &self.provider);
    }
}

async fn discovery(headers: HeaderMap) -> Json<Value> {
    let issuer = issuer_of(&headers);
    Json(json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/auth/authorize"),
        "token_endpoint": format!("{issuer}/auth/token"),
        "revocation_endpoint": format!("{issuer}/auth/revoke"),
        "jwks_uri": format!("{issuer}/auth/keys"),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query", "fragment", "form_post"],
        "subject_types_supported": ["pairwise"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "scopes_supported": ["openid", "email", "name"],
        "token_endpoint_auth_methods_supported": ["client_secret_post"],
        "claims_supported": ["aud", "email", "email_verified", "exp", "iat", "is_private_email", "iss", "nonce",
            "nonce_supported", "real_user_status", "sub", "transfer_sub"],
    }))
}

fn error_page(message: &str) -> Response {
    (StatusCode::BAD_REQUEST, Html(format!("<p>invalid_request</p><p>{message}</p>"))).into_response()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

async fn authorize(State(apple): State<Arc<AppleState>>, RawQuery(query): RawQuery) -> Response {
    let query = params(query.as_deref().unwrap_or_default());
    let get = |key: &str| query.get(key).cloned().unwrap_or_default();
    if get("client_id") != CLIENT_ID || !apple.provider.redirect_registered(&get("redirect_uri")) {
        return error_page("Invalid client id or web redirect url.");
    }
    if !matches!(get("response_type").as_str(), "code" | "code id_token") {
        return error_page("Invalid response_type.");
    }
    let scope = get("scope");
    let scopes: Vec<&str> = scope.split(' ').collect();
    if (scopes.contains(&"name") || scopes.contains(&"email")) && get("response_mode") != "form_post" {
        return error_page("response_mode must be form_post when name or email scope is requested.");
    }
    let challenge = query.get("code_challenge").map(|challenge| {
        (challenge.clone(), query.get("code_challenge_method").cloned().unwrap_or_else(|| "plain".into()))
    });
    let mut person = None;
    let code = apple.provider.approve(|signing_in| {
        person = Some(signing_in.clone());
        Grant {
            client_id: get("client_id"),
            redirect_uri: get("redirect_uri"),
            challenge,
            nonce: query.get("nonce").cloned(),
            scope: scope.clone(),
            person: signing_in,
            used: false,
        }
    });
    let (Some(code), Some(person)) = (code, person) else {
        return error_page("no one signs in at the fake Apple: call sign_in_next first");
    };
    let mut fields = vec![("code", code), ("state", get("state"))];
    let first_time = apple.authorized_before.lock().unwrap().insert(person.subject.clone());
    if first_time && scopes.contains(&"name") {
        let mut user = json!({ "name": { "firstName": person.first_name, "lastName": person.last_name } });
        if let Some(email) = person.email.as_ref().filter(|_| scopes.contains(&"email")) {
            user["email"] = json!(email);
        }
        fields.push(("user", user.to_string()));
    }
    let inputs: String = fields
        .iter()
        .map(|(name, value)| format!(r#"<input type="hidden" name="{name}" value="{}">"#, escape(value)))
        .collect();
    Html(format!(
        r#"<!DOCTYPE html><html><body onload="document.forms[0].submit()"><form method="post" action="{}">{inputs}</form></body></html>"#,
        escape(&get("redirect_uri"))
    ))
    .into_response()
}

fn apple_error(error: &str) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({ "error": error }))).into_response()
}

impl AppleState {
    /// The checks Apple makes of a client secret; `Err` names the first that fails.
    fn check_client_secret(&self, secret: &str, client_id: &str) -> Result<(), String> {
        let header = jsonwebtoken::decode_header(secret).map_err(|_| "client_secret is not a JWT")?;
        if header.alg != Algorithm::ES256 {
            return Err(format!("client_secret signed with {:?}, not ES256", header.alg));
        }
        if header.kid.as_deref() != Some(KEY_ID) {
            return Err(format!("client_secret names key {:?}, not the team's {KEY_ID}", header.kid));
        }
        let mut validation = Validation::new(Algorithm::ES256);
        validation.set_audience(&[CLIENT_SECRET_AUDIENCE]);
        validation.set_issuer(&[TEAM_ID]);
        validation.set_required_spec_claims(&["exp", "iat", "iss", "sub", "aud"]);
        let claims = jsonwebtoken::decode::<Value>(secret, &self.team_key, &validation)
            .map_err(|error| format!("client_secret: {error}"))?
            .claims;
        if claims["sub"] != client_id {
            return Err(format!("client_secret's sub {} is not the client id {client_id}", claims["sub"]));
        }
        let (iat, exp) = (claims["iat"].as_u64().unwrap_or(0), claims["exp"].as_u64().unwrap_or(0));
        if iat > now_secs() + 60 || exp.saturating_sub(iat) > SIX_MONTHS {
            return Err("client_secret's iat is in the future or it lives longer than six months".into());
        }
        Ok(())
    }
}

async fn token(State(apple): State<Arc<AppleState>>, headers: HeaderMap, body: String) -> Response {
    let form = params(&body);
    let provider = &apple.provider;
    provider.token_requests.lock().unwrap().push(form.clone());
    let get = |key: &str| form.get(key).map(String::as_str);
    if headers.contains_key(header::AUTHORIZATION) {
        provider.violation("Apple takes the client secret only in the form (client_secret_post)");
    }
    if get("grant_type") != Some("authorization_code") {
        return apple_error("unsupported_grant_type");
    }
    let client_id = get("client_id").unwrap_or_default();
    if client_id != CLIENT_ID {
        return apple_error("invalid_client");
    }
    if let Err(why) = apple.check_client_secret(get("client_secret").unwrap_or_default(), client_id) {
        provider.violation(format!("refused the client secret: {why}"));
        return apple_error("invalid_client");
    }
    let grant =
        match provider.redeem(get("code").unwrap_or_default(), client_id, get("redirect_uri"), get("code_verifier")) {
            Ok(grant) => grant,
            Err(Refusal::InvalidGrant(_)) => return apple_error("invalid_grant"),
            Err(Refusal::InvalidRequest(_)) => return apple_error("invalid_request"),
        };
    let access_token = random_token("a");
    let now = now_secs();
    let person = &grant.person;
    let mut claims = json!({
        "iss": issuer_of(&headers),
        "aud": CLIENT_ID,
        "exp": now + 86_400,
        "iat": now,
        "sub": person.subject,
        "at_hash": at_hash(&access_token),
        "auth_time": now,
        "nonce_supported": true,
        "real_user_status": 2,
    });
    if let Some(nonce) = &grant.nonce {
        claims["nonce"] = json!(nonce);
    }
    if let Some(email) = person.email.as_ref().filter(|_| grant.scope.split(' ').any(|scope| scope == "email")) {
        claims["email"] = json!(email);
        // Apple sends these booleans as strings ("true") as often as not.
        claims["email_verified"] = json!(person.email_verified.to_string());
        claims["is_private_email"] = json!(email.ends_with("@privaterelay.appleid.com").to_string());
    }
    Json(json!({
        "access_token": access_token,
        "token_type": "Bearer",
        "expires_in": 3600,
        "refresh_token": random_token("r"),
        "id_token": provider.id_token(&claims, ""),
    }))
    .into_response()
}
