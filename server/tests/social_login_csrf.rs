//! A provider sign-in reaches the app as a one-time code bound to the browser that signed in
//! (issue 46, login CSRF): the callback's link carries no bearer token, and its code turns into a
//! session only with the handoff cookie of that browser. A link sent to someone else (as an
//! attacker would, to sign a victim into the attacker's account) signs them in to nothing.

use reqwest::StatusCode;
use serde_json::json;
use url::Url;

use crate::common;

use common::{
    TestApp,
    sign_in::{browser, complete_signup, location, redeem, sign_in_at_sandbox},
};

on_both_backends!(a_sign_in_link_works_only_in_the_browser_that_signed_in);

/// Signs in at the sandbox as `email` in `browser`, up to the callback's redirect: its target.
async fn callback_target(app: &TestApp, browser: &reqwest::Client, email: &str) -> Url {
    let back = sign_in_at_sandbox(app, browser, email, "Ada Attacker", true, |_| {}).await;
    let answer = browser.get(back).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::FOUND);
    Url::parse("http://app.invalid").unwrap().join(&location(&answer)).unwrap()
}

async fn a_sign_in_link_works_only_in_the_browser_that_signed_in(app: TestApp) -> TestApp {
    // The attacker has an account made through the provider.
    let attacker = browser();
    let first = callback_target(&app, &attacker, "attacker@example.com").await;
    assert_eq!(first.path(), "/signup");
    let token = first.query_pairs().find(|(key, _)| key == "oidc").unwrap().1.into_owned();
    complete_signup(&app, &token).await;

    // Signing in again, the attacker stops at the callback's link and sends it to a victim.
    let target = callback_target(&app, &attacker, "attacker@example.com").await;
    assert_eq!(target.path(), "/auth/callback");
    let fragment: Vec<(String, String)> =
        url::form_urlencoded::parse(target.fragment().unwrap_or("").as_bytes()).into_owned().collect();
    assert!(fragment.iter().all(|(key, _)| !key.contains("token")), "no bearer token in the link: {fragment:?}");
    let code = fragment.iter().find(|(key, _)| key == "code").expect("a one-time code").1.clone();

    let server = Url::parse(&app.url("/")).unwrap();
    let victim = browser();
    let refused = redeem(&victim, &server, &code).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{:?}", refused.body);
    assert!(refused.body.get("access_token").is_none());
    let bare = app.post("/api/auth/oidc/redeem", None, json!({ "code": code })).await;
    assert_eq!(bare.status, StatusCode::BAD_REQUEST, "without the browser's cookie");

    // The victim's attempts used nothing up: the browser that signed in still redeems it, once.
    let session = redeem(&attacker, &server, &code).await;
    assert_eq!(session.status, StatusCode::OK, "{:?}", session.body);
    assert_eq!(session.body["user"]["email"], "attacker@example.com");
    let again = redeem(&attacker, &server, &code).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "a code works once");
    app
}
