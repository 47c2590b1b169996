//! A browser going through social sign-in: the start on this server, the provider's page (a
//! redirect back, or Apple's self-submitting form POST), the callback, and where the app's pages
//! end up (a session, the sign-up choices, or a refusal).
#![allow(dead_code)]

use reqwest::{StatusCode, header};
use serde_json::{Value, json};
use url::Url;

use super::{TestApp, rows::snapshot_table};

/// What the app's pages would see after the provider sent the browser back.
#[derive(Debug)]
pub enum Arrival {
    Session { refresh_token: String, redirect: String },
    SignUp { token: String, query: Vec<(String, String)> },
    Refused(String),
}

/// How the provider's page sends the browser back to our callback.
#[derive(Clone, Debug)]
pub enum Back {
    Redirect(String),
    FormPost { action: String, fields: Vec<(String, String)> },
}

impl Back {
    /// A value the provider sent back (`code`, `state`, `user`).
    pub fn field(&self, name: &str) -> Option<String> {
        match self {
            Back::Redirect(url) => {
                Url::parse(url).unwrap().query_pairs().find(|(key, _)| key == name).map(|(_, value)| value.into_owned())
            }
            Back::FormPost { fields, .. } => fields.iter().find(|(key, _)| key == name).map(|(_, value)| value.clone()),
        }
    }

    /// The same answer with `name` set to `value` (a forger's edit).
    pub fn with_field(&self, name: &str, value: &str) -> Back {
        match self {
            Back::Redirect(url) => {
                let mut url = Url::parse(url).unwrap();
                let pairs: Vec<(String, String)> = url
                    .query_pairs()
                    .into_owned()
                    .map(|(key, old)| if key == name { (key, value.to_owned()) } else { (key, old) })
                    .collect();
                url.query_pairs_mut().clear().extend_pairs(pairs);
                Back::Redirect(url.into())
            }
            Back::FormPost { action, fields } => Back::FormPost {
                action: action.clone(),
                fields: fields
                    .iter()
                    .map(|(key, old)| (key.clone(), if key == name { value.to_owned() } else { old.clone() }))
                    .collect(),
            },
        }
    }
}

/// A browser: keeps the cookie that binds a sign-in to it, follows no redirects by itself.
pub fn browser() -> reqwest::Client {
    reqwest::Client::builder().cookie_store(true).redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

pub fn location(response: &reqwest::Response) -> String {
    response.headers().get(header::LOCATION).expect("a redirect").to_str().unwrap().to_owned()
}

/// "Continue with …": our start, answered with a redirect to the provider's authorization page.
pub async fn start(app: &TestApp, browser: &reqwest::Client, provider: &str) -> Url {
    let start =
        browser.get(app.url(&format!("/api/auth/oidc/{provider}/start?redirect=/my-tasks"))).send().await.unwrap();
    if start.status() != StatusCode::FOUND {
        panic!("the start answered {}: {:?}", start.status(), start.text().await);
    }
    Url::parse(&location(&start)).unwrap()
}

/// The provider's page, where the person the fake was told about approves at once.
pub async fn at_provider(browser: &reqwest::Client, authorize: &Url) -> Back {
    let page = browser.get(authorize.as_str()).send().await.unwrap();
    if page.status() == StatusCode::FOUND {
        let mut back = Url::parse(&location(&page)).unwrap();
        // A fragment stays in the browser (Facebook adds `#_=_`).
        back.set_fragment(None);
        return Back::Redirect(back.into());
    }
    let status = page.status();
    let html = page.text().await.unwrap();
    assert_eq!(status, StatusCode::OK, "the provider refused the authorization request: {html}");
    let action = regex::Regex::new(r#"<form method="post" action="([^"]*)""#).unwrap();
    let action = unescape(&action.captures(&html).expect("a form POST back")[1]);
    let inputs = regex::Regex::new(r#"<input type="hidden" name="([^"]*)" value="([^"]*)">"#).unwrap();
    let fields = inputs.captures_iter(&html).map(|field| (field[1].to_owned(), unescape(&field[2]))).collect();
    Back::FormPost { action, fields }
}

fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

/// The browser goes back to our callback as the provider told it to.
pub async fn return_to_app(browser: &reqwest::Client, back: &Back) -> (StatusCode, Option<Arrival>, Value) {
    let response = match back {
        Back::Redirect(url) => browser.get(url).send().await.unwrap(),
        Back::FormPost { action, fields } => browser.post(action).form(fields).send().await.unwrap(),
    };
    arrival(browser, response).await
}

/// Follows the provider's redirect to our callback.
pub async fn callback(browser: &reqwest::Client, callback_url: &str) -> (StatusCode, Option<Arrival>, Value) {
    arrival(browser, browser.get(callback_url).send().await.unwrap()).await
}

/// Where the callback left the browser; a sign-in's one-time code is redeemed at once by the same
/// browser (as the app's /auth/callback page does), which sends the handoff cookie with it.
async fn arrival(browser: &reqwest::Client, response: reqwest::Response) -> (StatusCode, Option<Arrival>, Value) {
    let status = response.status();
    if status != StatusCode::FOUND {
        return (status, None, TestApp::read(response).await.body);
    }
    let target = Url::parse("http://app.invalid").unwrap().join(&location(&response)).unwrap();
    let pairs = |text: Option<&str>| -> Vec<(String, String)> {
        url::form_urlencoded::parse(text.unwrap_or("").as_bytes()).into_owned().collect()
    };
    let find = |pairs: &[(String, String)], key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let arrival = match target.path() {
        "/auth/callback" => {
            let fragment = pairs(target.fragment());
            assert!(fragment.iter().all(|(key, _)| !key.ends_with("_token")), "no bearer token in a URL: {fragment:?}");
            match find(&fragment, "error") {
                Some(message) => Arrival::Refused(message),
                None => {
                    let code = find(&fragment, "code").expect("a one-time code");
                    let session = redeem(browser, response.url(), &code).await;
                    assert_eq!(session.status, StatusCode::OK, "{:?}", session.body);
                    Arrival::Session {
                        refresh_token: session.body["refresh_token"].as_str().expect("a session").to_owned(),
                        redirect: find(&fragment, "redirect").expect("a redirect"),
                    }
                }
            }
        }
        "/signup" => {
            let query = pairs(target.query());
            Arrival::SignUp { token: find(&query, "oidc").expect("a sign-up token"), query }
        }
        other => panic!("unexpected redirect to {other}"),
    };
    (status, Some(arrival), Value::Null)
}

/// The app's callback page redeeming a sign-in's one-time code from `browser`, on the server that
/// answered `on`.
pub async fn redeem(browser: &reqwest::Client, on: &Url, code: &str) -> super::Response {
    let url = on.join("/api/auth/oidc/redeem").unwrap();
    TestApp::read(browser.post(url).json(&json!({ "code": code })).send().await.unwrap()).await
}

/// Start → the sandbox's authorization page → its redirect to our callback, carrying the
/// code and state. `tamper` may change the authorization request first (a test of the nonce).
pub async fn sign_in_at_sandbox(
    app: &TestApp,
    browser: &reqwest::Client,
    email: &str,
    name: &str,
    email_verified: bool,
    tamper: impl FnOnce(&mut Vec<(String, String)>),
) -> String {
    let start = browser.get(app.url("/api/auth/oidc/sandbox/start?redirect=/my-tasks")).send().await.unwrap();
    assert_eq!(start.status(), StatusCode::FOUND);
    let authorize = Url::parse(&location(&start)).unwrap();
    assert_eq!(authorize.path(), "/sandbox/oidc/authorize");
    let mut params: Vec<(String, String)> = authorize.query_pairs().into_owned().collect();
    for required in ["state", "nonce", "code_challenge"] {
        assert!(params.iter().any(|(key, value)| key == required && !value.is_empty()), "no {required}");
    }
    assert!(params.contains(&("code_challenge_method".into(), "S256".into())));
    let page = browser.get(authorize.as_str()).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("Sign in to Taskhub"));
    tamper(&mut params);
    params.push(("email".into(), email.into()));
    params.push(("name".into(), name.into()));
    params.push(("action".into(), "approve".into()));
    if email_verified {
        params.push(("email_verified".into(), "true".into()));
    }
    let approved = browser.post(app.url("/sandbox/oidc/authorize")).form(&params).send().await.unwrap();
    assert!(approved.status().is_redirection(), "{}", approved.status());
    location(&approved)
}

/// A whole sign-in at `provider` by whoever its fake was told signs in next.
pub async fn sign_in_through(app: &TestApp, provider: &str) -> Arrival {
    let browser = browser();
    let authorize = start(app, &browser, provider).await;
    let back = at_provider(&browser, &authorize).await;
    let (status, arrival, body) = return_to_app(&browser, &back).await;
    assert_eq!(status, StatusCode::FOUND, "{body:?}");
    arrival.unwrap()
}

/// A new person's sign-up choice after the provider (as the app's /signup page sends it).
pub async fn complete_signup(app: &TestApp, token: &str) -> Value {
    let created = app
        .post(
            "/api/auth/oidc/complete-signup",
            None,
            json!({ "token": token, "account_type": "tasker", "skills": [{ "name": "Gardening", "level": 70 }] }),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.body);
    created.body
}

/// A new person's sign-up choice when the provider did not verify the address: no account until
/// the mailed link is opened in the same browser (which sends the sign-up token with it).
pub async fn complete_signup_by_mail(app: &TestApp, token: &str, email: &str) -> Value {
    let chosen = app
        .post(
            "/api/auth/oidc/complete-signup",
            None,
            json!({ "token": token, "account_type": "tasker", "skills": [{ "name": "Gardening", "level": 70 }] }),
        )
        .await;
    assert_eq!(chosen.status, StatusCode::ACCEPTED, "{:?}", chosen.body);
    let mailed = app.token_mailed_to(email, "Confirm your email").await;
    let created =
        app.post("/api/auth/oidc/confirm-signup", None, json!({ "token": mailed, "signup_token": token })).await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.body);
    created.body
}

/// The session a callback's refresh token opens (as the app's /auth/callback page does).
pub async fn session_from(app: &TestApp, refresh_token: &str) -> Value {
    let session = app.post("/api/auth/refresh", None, json!({ "refresh_token": refresh_token })).await;
    assert_eq!(session.status, StatusCode::OK, "{:?}", session.body);
    session.body
}

/// Everything a sign-in could change.
pub async fn sign_in_tables(app: &TestApp) -> Vec<Vec<String>> {
    let mut tables = Vec::new();
    for table in ["users", "profiles", "user_identities", "refresh_tokens", "oidc_signups"] {
        tables.push(snapshot_table(app, table).await);
    }
    tables
}

/// The callback answers 400 because the provider did not confirm who signed in (a refused code,
/// an ID token that does not check out), and nothing a sign-in could change has changed.
pub async fn assert_not_confirmed(app: &TestApp, browser: &reqwest::Client, back: &Back, provider_name: &str) {
    let before = sign_in_tables(app).await;
    let (status, arrival, body) = return_to_app(browser, back).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{arrival:?} {body:?}");
    assert_eq!(body["error"]["message"], format!("{provider_name} could not confirm who signed in. Please try again."));
    assert_eq!(sign_in_tables(app).await, before, "a sign-in the provider did not confirm changes nothing");
}

/// A forged `state` on the way back is refused before anything is asked of the provider, and
/// the genuine sign-in it tried to hijack is still waiting (`oidc_logins` unchanged too).
pub async fn assert_forged_state_refused(app: &TestApp, browser: &reqwest::Client, back: &Back) {
    let before = (sign_in_tables(app).await, snapshot_table(app, "oidc_logins").await);
    let (status, arrival, body) = return_to_app(browser, &back.with_field("state", "forged-state")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{arrival:?} {body:?}");
    assert_eq!(body["error"]["message"], "This sign-in is invalid or has expired. Please start again.");
    let after = (sign_in_tables(app).await, snapshot_table(app, "oidc_logins").await);
    assert_eq!(after, before, "a forged state changes nothing");
}
