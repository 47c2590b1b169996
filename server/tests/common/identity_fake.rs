//! What the fake Google, Apple and Facebook (`google_fake`, `apple_fake`, `facebook_fake`) share:
//! an HTTP server on 127.0.0.1:0, the person who will "sign in" at the provider's page, the
//! authorization codes it hands out and the checks a real authorization server makes when one
//! is redeemed (RFC 6749 §4.1.3 and RFC 7636 §4.6): the code is known and unused, it was issued
//! to this client, for this `redirect_uri`, and the PKCE `code_verifier` hashes to the challenge
//! the authorization request carried. ID tokens are RS256 JWTs signed with a key the provider
//! publishes in its JWKS, or forged on request to prove the client refuses them.
//!
//! Requests a real provider would reject are refused with that provider's error shape; what
//! only a fake can notice (a client that breaks the protocol in a way the provider tolerates)
//! is recorded as a violation, and violations fail the test when the fake is dropped.
#![allow(dead_code)]

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, OnceLock},
    time::{SystemTime, UNIX_EPOCH},
};

use axum::{
    Router,
    http::{HeaderMap, header},
};
use base64::{
    Engine,
    engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD},
};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// Test-only RSA keys (tests/fixtures/README.md): the provider's current and next signing keys,
/// and a key nobody published.
const KEYS: &str = include_str!("../fixtures/identity-provider-keys.json");
pub const CURRENT_KID: &str = "fake-2026-11-current";
pub const NEXT_KID: &str = "fake-2026-12-next";

fn keys() -> &'static Value {
    static KEYS_JSON: OnceLock<Value> = OnceLock::new();
    KEYS_JSON.get_or_init(|| serde_json::from_str(KEYS).expect("the identity provider keys fixture is JSON"))
}

fn encoding_key(name: &str) -> EncodingKey {
    let der = keys()[name]["pkcs1_der"].as_str().expect("a key in the keys fixture");
    EncodingKey::from_rsa_der(&STANDARD.decode(der).expect("base64"))
}

/// The provider's published keys (`jwks_uri`): the one it signs with now and the next one, as
/// Google publishes both ahead of a rotation.
/// The fake's issuer URL, as the server under test reached it (the provider's own address).
pub fn issuer_of(headers: &HeaderMap) -> String {
    format!("http://{}", headers.get(header::HOST).and_then(|host| host.to_str().ok()).unwrap_or_default())
}

pub fn jwks() -> Value {
    let jwk = |name: &str, kid: &str| {
        json!({ "kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid,
                "n": keys()[name]["n"], "e": keys()[name]["e"] })
    };
    json!({ "keys": [jwk("provider", CURRENT_KID), jwk("next", NEXT_KID)] })
}

/// How the next ID token is made wrong, to prove the client refuses it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Forgery {
    #[default]
    None,
    /// Signed with a key the provider never published, under the kid of its real key.
    UnpublishedKey,
    /// HS256 with the client secret as the key (a client that accepts it trusts anyone who
    /// knows or guesses the secret).
    SymmetricWithClientSecret,
}

/// Who signs in at the provider's page next.
#[derive(Clone, Debug)]
pub struct Person {
    pub subject: String,
    pub email: Option<String>,
    pub email_verified: bool,
    pub first_name: String,
    pub last_name: String,
    /// Facebook: the person unticks the email permission in the dialog.
    pub shares_email: bool,
}

impl Person {
    pub fn new(subject: &str, email: &str, first_name: &str, last_name: &str) -> Self {
        Self {
            subject: subject.into(),
            email: Some(email.into()),
            email_verified: true,
            first_name: first_name.into(),
            last_name: last_name.into(),
            shares_email: true,
        }
    }

    pub fn email_unverified(mut self) -> Self {
        self.email_verified = false;
        self
    }

    pub fn declining_email(mut self) -> Self {
        self.shares_email = false;
        self
    }
}

/// An authorization code and what it was issued for.
#[derive(Clone, Debug)]
pub struct Grant {
    pub client_id: String,
    pub redirect_uri: String,
    /// `(code_challenge, code_challenge_method)`.
    pub challenge: Option<(String, String)>,
    pub nonce: Option<String>,
    pub scope: String,
    pub person: Person,
    pub used: bool,
}

/// Why a code was not redeemed (RFC 6749 §5.2 codes; each fake renders its own shape).
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    InvalidGrant(&'static str),
    InvalidRequest(&'static str),
}

/// The state every fake provider keeps.
#[derive(Default)]
pub struct Provider {
    pub registered_redirect: Mutex<Option<String>>,
    next_person: Mutex<Option<Person>>,
    grants: Mutex<HashMap<String, Grant>>,
    forgery: Mutex<Forgery>,
    violations: Mutex<Vec<String>>,
    /// Every token request's parameters, for assertions about what the client sent.
    pub token_requests: Mutex<Vec<HashMap<String, String>>>,
}

impl Provider {
    pub fn sign_in_next(&self, person: Person) {
        *self.next_person.lock().unwrap() = Some(person);
    }

    pub fn forge_next_id_token(&self, forgery: Forgery) {
        *self.forgery.lock().unwrap() = forgery;
    }

    pub fn violation(&self, what: impl Into<String>) {
        self.violations.lock().unwrap().push(what.into());
    }

    pub fn violations(&self) -> Vec<String> {
        self.violations.lock().unwrap().clone()
    }

    /// Checks the `redirect_uri` of an authorization request as providers do: exactly one of
    /// the URIs registered for the client, compared as strings.
    pub fn redirect_registered(&self, redirect_uri: &str) -> bool {
        self.registered_redirect.lock().unwrap().as_deref() == Some(redirect_uri)
    }

    /// The person at the provider's page approves: a new single-use code for this request.
    pub fn approve(&self, grant: impl FnOnce(Person) -> Grant) -> Option<String> {
        let person = self.next_person.lock().unwrap().clone()?;
        let code = random_token("code");
        self.grants.lock().unwrap().insert(code.clone(), grant(person));
        Some(code)
    }

    /// The token endpoint's checks once the client has authenticated.
    pub fn redeem(
        &self,
        code: &str,
        client_id: &str,
        redirect_uri: Option<&str>,
        code_verifier: Option<&str>,
    ) -> Result<Grant, Refusal> {
        let mut grants = self.grants.lock().unwrap();
        let grant = grants.get_mut(code).ok_or(Refusal::InvalidGrant("unknown authorization code"))?;
        if grant.used {
            return Err(Refusal::InvalidGrant("the authorization code was already used"));
        }
        // A presented code is spent whatever follows, so a wrong verifier cannot be retried.
        grant.used = true;
        if grant.client_id != client_id {
            return Err(Refusal::InvalidGrant("the code was issued to another client"));
        }
        if redirect_uri != Some(grant.redirect_uri.as_str()) {
            return Err(Refusal::InvalidGrant("redirect_uri differs from the authorization request's"));
        }
        match (&grant.challenge, code_verifier) {
            (Some(challenge), Some(verifier)) if pkce_matches(challenge, verifier) => {}
            (Some(_), Some(_)) => return Err(Refusal::InvalidGrant("code_verifier does not match the code_challenge")),
            (Some(_), None) => return Err(Refusal::InvalidGrant("code_verifier is missing")),
            (None, Some(_)) => return Err(Refusal::InvalidRequest("code_verifier without a code_challenge")),
            (None, None) => {}
        }
        Ok(grant.clone())
    }

    /// An RS256 ID token with `claims`, signed with the current key (or forged as asked).
    pub fn id_token(&self, claims: &Value, client_secret: &str) -> String {
        let forgery = std::mem::take(&mut *self.forgery.lock().unwrap());
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(CURRENT_KID.into());
        let key = match forgery {
            Forgery::None => encoding_key("provider"),
            Forgery::UnpublishedKey => encoding_key("rogue"),
            Forgery::SymmetricWithClientSecret => {
                header.alg = Algorithm::HS256;
                EncodingKey::from_secret(client_secret.as_bytes())
            }
        };
        jsonwebtoken::encode(&header, claims, &key).expect("signing an ID token")
    }
}

/// RFC 7636 §4.6, with the verifier's form (§4.1: 43 to 128 unreserved characters).
pub fn pkce_matches((challenge, method): &(String, String), verifier: &str) -> bool {
    let well_formed = (43..=128).contains(&verifier.len())
        && verifier.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
    let derived = match method.as_str() {
        "S256" => URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())),
        "plain" => verifier.to_owned(),
        _ => return false,
    };
    well_formed && derived == *challenge
}

/// The `at_hash` of an access token (OpenID Connect Core §3.1.3.6, for RS256).
pub fn at_hash(access_token: &str) -> String {
    URL_SAFE_NO_PAD.encode(&Sha256::digest(access_token.as_bytes())[..16])
}

pub fn random_token(prefix: &str) -> String {
    let bytes: [u8; 24] = rand::random();
    format!("{prefix}.{}", URL_SAFE_NO_PAD.encode(bytes))
}

pub fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

/// The parameters of a query string or form body.
pub fn params(text: &str) -> HashMap<String, String> {
    url::form_urlencoded::parse(text.as_bytes()).into_owned().collect()
}

/// An HTTP server on 127.0.0.1:0 serving `router` until dropped.
pub struct Listening {
    pub base_url: String,
    task: tokio::task::JoinHandle<()>,
}

impl Listening {
    pub async fn start(router: Router) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("binding a fake provider");
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            axum::serve(listener, router).await.expect("the fake provider serves");
        });
        Self { base_url, task }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Fails the test when the fake saw what its provider would not accept.
pub fn assert_no_violations(name: &str, provider: &Arc<Provider>) {
    let violations = provider.violations();
    if !violations.is_empty() && !std::thread::panicking() {
        panic!("the fake {name} saw what {name} does not accept:\n  {}", violations.join("\n  "));
    }
}
