//! A fake Facebook Login and Graph API, shaped after Meta's "Manually Build a Login Flow", its
//! "OIDC Code Flow with PKCE" guide and "Securing Graph API requests": the login dialog
//! (`/v21.0/dialog/oauth`, redirecting back with `code` and `state`), the code exchange at
//! `/v21.0/oauth/access_token` (GET with a query, as documented, or POST with a form; `client_id`,
//! `client_secret`, the identical `redirect_uri`, `code` and the PKCE `code_verifier`) answering
//! `{"access_token", "token_type": "bearer", "expires_in"}`, and `/v21.0/me?fields=…` returning
//! only the fields asked for, with `email` only when the person granted the permission and has
//! an address. The app has "Require App Secret" on: every Graph call needs
//! `appsecret_proof` = HMAC-SHA256 of the access token keyed with the app secret, in hex.
//! Errors are the Graph API's `{"error": {"message", "type", "code", "error_subcode", "fbtrace_id"}}`
//! with status 400, not OAuth's shape.
#![allow(dead_code)]

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    Json, Router,
    extract::{RawQuery, State},
    http::{HeaderMap, Method, StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

use super::identity_fake::{Grant, Listening, Person, Provider, Refusal, assert_no_violations, params, random_token};

pub const APP_ID: &str = "1234567890123456";
pub const APP_SECRET: &str = "0123456789abcdef0123456789abcdef";
const VERSION: &str = "v21.0";

pub struct FakeFacebook {
    pub provider: Arc<Provider>,
    state: Arc<FacebookState>,
    server: Listening,
}

struct FacebookState {
    provider: Arc<Provider>,
    /// Access tokens issued, and who they speak for.
    tokens: Mutex<HashMap<String, Person>>,
    /// Every Graph API call's parameters.
    graph_calls: Mutex<Vec<HashMap<String, String>>>,
}

impl FakeFacebook {
    pub async fn start() -> Self {
        let provider = Arc::new(Provider::default());
        let state = Arc::new(FacebookState {
            provider: provider.clone(),
            tokens: Mutex::default(),
            graph_calls: Mutex::default(),
        });
        let router = Router::new()
            .route(&format!("/{VERSION}/dialog/oauth"), get(dialog))
            .route(&format!("/{VERSION}/oauth/access_token"), get(access_token).post(access_token))
            .route(&format!("/{VERSION}/me"), get(me))
            .with_state(state.clone());
        let server = Listening::start(router).await;
        Self { provider, state, server }
    }

    /// `FACEBOOK_DIALOG_URL` for the server under test.
    pub fn dialog_url(&self) -> String {
        format!("{}/{VERSION}/dialog/oauth", self.server.base_url)
    }

    /// `FACEBOOK_GRAPH_URL` for the server under test.
    pub fn graph_url(&self) -> String {
        format!("{}/{VERSION}", self.server.base_url)
    }

    /// "Valid OAuth Redirect URIs" in the app's Facebook Login settings (strict mode: exact match).
    pub fn register_redirect(&self, redirect_uri: String) {
        *self.provider.registered_redirect.lock().unwrap() = Some(redirect_uri);
    }

    pub fn sign_in_next(&self, person: Person) {
        self.provider.sign_in_next(person);
    }

    pub fn graph_calls(&self) -> Vec<HashMap<String, String>> {
        self.state.graph_calls.lock().unwrap().clone()
    }
}

impl Drop for FakeFacebook {
    fn drop(&mut self) {
        assert_no_violations("Facebook", &self.provider);
    }
}

/// The Graph API's error answer.
fn graph_error(code: u32, subcode: Option<u32>, message: &str) -> Response {
    let mut error = json!({ "message": message, "type": "OAuthException", "code": code, "fbtrace_id": "AFakeTraceId" });
    if let Some(subcode) = subcode {
        error["error_subcode"] = json!(subcode);
    }
    (StatusCode::BAD_REQUEST, Json(json!({ "error": error }))).into_response()
}

async fn dialog(State(facebook): State<Arc<FacebookState>>, RawQuery(query): RawQuery) -> Response {
    let query = params(query.as_deref().unwrap_or_default());
    let get = |key: &str| query.get(key).cloned().unwrap_or_default();
    if get("client_id") != APP_ID {
        return graph_error(101, None, "Error validating application. Invalid application ID.");
    }
    if !facebook.provider.redirect_registered(&get("redirect_uri")) {
        return graph_error(191, None, "Can't load URL: The domain of this URL isn't included in the app's domains.");
    }
    if query.get("response_type").is_some_and(|kind| kind != "code") {
        return graph_error(100, None, "Invalid response_type");
    }
    let challenge = query.get("code_challenge").map(|challenge| {
        (challenge.clone(), query.get("code_challenge_method").cloned().unwrap_or_else(|| "plain".into()))
    });
    if challenge.as_ref().is_some_and(|(_, method)| method != "S256" && method != "plain") {
        return graph_error(100, None, "Invalid code_challenge_method");
    }
    let scope = get("scope").replace(',', " ");
    let Some(code) = facebook.provider.approve(|person| Grant {
        client_id: get("client_id"),
        redirect_uri: get("redirect_uri"),
        challenge,
        nonce: None,
        scope: scope.clone(),
        person,
        used: false,
    }) else {
        return graph_error(100, None, "no one signs in at the fake Facebook: call sign_in_next first");
    };
    let mut back = url::Url::parse(&get("redirect_uri")).unwrap();
    back.query_pairs_mut().append_pair("code", &code).append_pair("state", &get("state"));
    // Facebook appends this fragment to every redirect back from the dialog.
    back.set_fragment(Some("_=_"));
    (StatusCode::FOUND, [(header::LOCATION, back.to_string())]).into_response()
}

async fn access_token(
    State(facebook): State<Arc<FacebookState>>,
    method: Method,
    RawQuery(query): RawQuery,
    body: String,
) -> Response {
    let request = if method == Method::POST { params(&body) } else { params(query.as_deref().unwrap_or_default()) };
    let provider = &facebook.provider;
    provider.token_requests.lock().unwrap().push(request.clone());
    let get = |key: &str| request.get(key).map(String::as_str);
    if get("client_id") != Some(APP_ID) {
        return graph_error(101, None, "Error validating application. Invalid application ID.");
    }
    if get("client_secret") != Some(APP_SECRET) {
        return graph_error(1, None, "Error validating client secret.");
    }
    let grant = match provider.redeem(
        get("code").unwrap_or_default(),
        APP_ID,
        get("redirect_uri"),
        get("code_verifier"),
    ) {
        Ok(grant) => grant,
        Err(Refusal::InvalidGrant("unknown authorization code")) => {
            return graph_error(100, None, "Invalid verification code format.");
        }
        Err(Refusal::InvalidGrant("the authorization code was already used")) => {
            return graph_error(100, Some(36009), "This authorization code has been used.");
        }
        Err(Refusal::InvalidGrant("redirect_uri differs from the authorization request's")) => {
            return graph_error(
                100,
                Some(36008),
                "Error validating verification code. Please make sure your redirect_uri is identical to the one you \
                 used in the OAuth dialog request",
            );
        }
        Err(Refusal::InvalidGrant(why) | Refusal::InvalidRequest(why)) => return graph_error(100, None, why),
    };
    let mut person = grant.person;
    let granted: Vec<&str> = grant.scope.split(' ').collect();
    if !granted.contains(&"email") || !person.shares_email {
        person.email = None;
    }
    let token = random_token("EAAB");
    facebook.tokens.lock().unwrap().insert(token.clone(), person);
    Json(json!({ "access_token": token, "token_type": "bearer", "expires_in": 5_183_944 })).into_response()
}

fn appsecret_proof(access_token: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(APP_SECRET.as_bytes()).unwrap();
    mac.update(access_token.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

async fn me(State(facebook): State<Arc<FacebookState>>, headers: HeaderMap, RawQuery(query): RawQuery) -> Response {
    let query = params(query.as_deref().unwrap_or_default());
    facebook.graph_calls.lock().unwrap().push(query.clone());
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok()?.strip_prefix("Bearer ").map(str::to_owned));
    let Some(token) = query.get("access_token").cloned().or(bearer) else {
        return graph_error(
            2500,
            None,
            "An active access token must be used to query information about the current user.",
        );
    };
    let Some(person) = facebook.tokens.lock().unwrap().get(&token).cloned() else {
        return graph_error(190, None, "Invalid OAuth access token - Cannot parse access token");
    };
    match query.get("appsecret_proof") {
        None => return graph_error(100, None, "API calls from the server require an appsecret_proof argument"),
        Some(proof) if *proof != appsecret_proof(&token) => {
            return graph_error(100, None, "Invalid appsecret_proof provided in the API argument");
        }
        Some(_) => {}
    }
    let fields = query.get("fields").cloned().unwrap_or_else(|| "id,name".into());
    let mut answer = serde_json::Map::new();
    for field in fields.split(',').map(str::trim) {
        let value = match field {
            "id" => json!(person.subject),
            "name" => json!(format!("{} {}", person.first_name, person.last_name)),
            "first_name" => json!(person.first_name),
            "last_name" => json!(person.last_name),
            "email" => match &person.email {
                Some(email) => json!(email),
                None => continue,
            },
            other => return graph_error(100, None, &format!("(#100) Tried accessing nonexisting field ({other})")),
        };
        answer.insert(field.to_owned(), value);
    }
    Json(Value::Object(answer)).into_response()
}
