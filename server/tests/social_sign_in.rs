//! Social sign-in (issue 24 part C, API.md "Verification, portfolio and photos"): the whole
//! authorization-code flow against the sandbox identity provider this server runs in dev mode,
//! through the same OpenID Connect client code Google's sign-in uses. Refusals (a forged or
//! replayed `state`, a wrong nonce, linking to an unverified address, unlinking the last way
//! in) leave the accounts, identities and sessions exactly as they were.

use domain::config::Config;

use crate::common;

use common::{
    TestApp,
    sign_in::{Arrival, browser, callback, session_from, sign_in_at_sandbox, sign_in_tables},
};
use reqwest::{StatusCode, header};
use serde_json::json;
use url::Url;

on_both_backends!(
    a_new_person_signs_up_as_a_tasker_then_signs_in_again,
    only_configured_providers_are_offered: without_dev_mode,
    the_sandbox_is_offered_in_dev_mode,
    a_forged_or_replayed_state_is_refused,
    an_id_token_with_another_nonce_is_refused,
    a_verified_identity_links_only_to_a_verified_account,
    the_last_way_to_sign_in_cannot_be_unlinked,
);

fn without_dev_mode(config: &mut Config) {
    config.dev_mode = false;
    // Payments run through the sandbox on purpose here; the sandbox sign-in stays dev-only.
    config.allow_sandbox_providers = true;
}

async fn arrive(app: &TestApp, email: &str, name: &str, email_verified: bool) -> Arrival {
    let browser = browser();
    let back = sign_in_at_sandbox(app, &browser, email, name, email_verified, |_| {}).await;
    let (status, arrival, body) = callback(&browser, &back).await;
    assert_eq!(status, StatusCode::FOUND, "{body:?}");
    arrival.unwrap()
}

async fn a_new_person_signs_up_as_a_tasker_then_signs_in_again(app: TestApp) -> TestApp {
    let Arrival::SignUp { token, query } = arrive(&app, "new.tasker@example.com", "Nova Tasker", true).await else {
        panic!("a new person chooses their account type first");
    };
    assert!(query.contains(&("email".into(), "new.tasker@example.com".into())));
    assert!(query.contains(&("first_name".into(), "Nova".into())));

    let before = sign_in_tables(&app).await;
    let no_skills =
        app.post("/api/auth/oidc/complete-signup", None, json!({ "token": token, "account_type": "tasker" })).await;
    assert_eq!(no_skills.status, StatusCode::UNPROCESSABLE_ENTITY, "{:?}", no_skills.body);
    assert_eq!(no_skills.field_error("skills"), "Please add at least one skill");
    let forged = app
        .post("/api/auth/oidc/complete-signup", None, json!({ "token": "forged", "account_type": "customer" }))
        .await;
    assert_eq!(forged.status, StatusCode::BAD_REQUEST, "{:?}", forged.body);
    assert_eq!(sign_in_tables(&app).await, before, "refused sign-ups change nothing");

    let skills = json!([{ "name": "Gardening", "level": 70 }]);
    let created = app
        .post(
            "/api/auth/oidc/complete-signup",
            None,
            json!({ "token": token, "account_type": "tasker", "skills": skills }),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.body);
    assert_eq!(created.body["user"]["email"], "new.tasker@example.com");
    assert_eq!(created.body["user"]["email_verified"], true);
    assert_eq!(created.body["profile"]["is_tasker"], true);
    assert_eq!(created.body["profile"]["first_name"], "Nova");
    assert_eq!(created.body["profile"]["last_name"], "Tasker");
    let access = created.body["access_token"].as_str().unwrap().to_owned();
    let me = app.get("/api/me", Some(&access)).await;
    assert_eq!(me.status, StatusCode::OK);
    let identities = app.get("/api/me/identities", Some(&access)).await;
    assert_eq!(identities.status, StatusCode::OK);
    assert_eq!(identities.body["has_password"], false);
    assert_eq!(identities.body["items"][0]["provider"], "sandbox");
    assert_eq!(identities.body["items"][0]["email"], "new.tasker@example.com");

    let used =
        app.post("/api/auth/oidc/complete-signup", None, json!({ "token": token, "account_type": "customer" })).await;
    assert_eq!(used.status, StatusCode::BAD_REQUEST, "a sign-up token works once");

    // No password to guess: the account signs in through its provider only.
    let password =
        app.post("/api/auth/login", None, json!({ "email": "new.tasker@example.com", "password": "" })).await;
    assert_eq!(password.status, StatusCode::UNPROCESSABLE_ENTITY);

    let Arrival::Session { refresh_token, redirect } =
        arrive(&app, "new.tasker@example.com", "Nova Tasker", true).await
    else {
        panic!("a linked identity signs in");
    };
    assert_eq!(redirect, "/my-tasks");
    let session = session_from(&app, &refresh_token).await;
    assert_eq!(session["user"]["email"], "new.tasker@example.com");
    assert_eq!(session["profile"]["is_tasker"], true);
    app
}

async fn only_configured_providers_are_offered(app: TestApp) -> TestApp {
    let providers = app.get("/api/auth/providers", None).await;
    assert_eq!(providers.status, StatusCode::OK);
    assert_eq!(providers.body, json!([]), "nothing configured and no dev mode: no buttons");
    for provider in ["sandbox", "google", "facebook", "apple", "github"] {
        let start = app.get(&format!("/api/auth/oidc/{provider}/start"), None).await;
        assert_eq!(start.status, StatusCode::NOT_FOUND, "{provider}");
        assert_eq!(start.error_code(), "not_found");
    }
    let page = app.client.get(app.url("/sandbox/oidc/.well-known/openid-configuration")).send().await.unwrap();
    assert_ne!(page.status(), StatusCode::OK, "no sandbox provider outside dev mode");
    app
}

async fn the_sandbox_is_offered_in_dev_mode(app: TestApp) -> TestApp {
    let providers = app.get("/api/auth/providers", None).await;
    assert_eq!(providers.body, json!([{ "id": "sandbox", "name": "Sandbox ID" }]));
    let google = app.get("/api/auth/oidc/google/start", None).await;
    assert_eq!(google.status, StatusCode::NOT_FOUND, "Google is not configured");
    let outside = app.client.get(app.url("/api/auth/oidc/sandbox/start?redirect=//evil.example")).send().await.unwrap();
    let back = sign_in_at_sandbox(&app, &browser(), "someone@example.com", "Some One", true, |_| {}).await;
    assert!(back.contains("/api/auth/oidc/sandbox/callback?code="), "{back}");
    assert_eq!(outside.status(), StatusCode::FOUND);
    app
}

async fn a_forged_or_replayed_state_is_refused(app: TestApp) -> TestApp {
    let browser = browser();
    let back = sign_in_at_sandbox(&app, &browser, "replay@example.com", "Re Play", true, |_| {}).await;
    let query: Vec<(String, String)> = Url::parse(&back).unwrap().query_pairs().into_owned().collect();
    let value = |key: &str| query.iter().find(|(k, _)| k == key).unwrap().1.clone();
    let (code, state) = (value("code"), value("state"));
    let callback_with = |state: &str| {
        let mut url = Url::parse(&app.url("/api/auth/oidc/sandbox/callback")).unwrap();
        url.query_pairs_mut().append_pair("code", &code).append_pair("state", state);
        url.to_string()
    };
    // Sent with the cookie the forger chose, so the server's own record is what refuses it.
    let forged_with_cookie = |state: &str, cookie: &str| {
        app.client.get(callback_with(state)).header(header::COOKIE, format!("taskhub_oidc={cookie}")).send()
    };

    let before = sign_in_tables(&app).await;
    let (status, _, body) = callback(&browser, &callback_with("forged-state")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:?}");
    assert_eq!(body["error"]["code"], "bad_request");
    let forged = forged_with_cookie("forged-state", "forged-state").await.unwrap();
    assert_eq!(forged.status(), StatusCode::BAD_REQUEST, "a state this server never issued");
    let (status, _, _) = callback(&browser, &app.url("/api/auth/oidc/sandbox/callback?code=x")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "no state at all");
    // The right state from another browser (a link sent to a victim): not this browser's sign-in.
    let (status, _, _) = callback(&app.client, &back).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a sign-in is bound to the browser that started it");
    assert_eq!(sign_in_tables(&app).await, before, "a forged state changes nothing");

    let (status, arrival, _) = callback(&browser, &back).await;
    assert_eq!(status, StatusCode::FOUND);
    assert!(matches!(arrival, Some(Arrival::SignUp { .. })), "{arrival:?}");
    let before = sign_in_tables(&app).await;
    let (status, _, body) = callback(&browser, &back).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a state works once: {body:?}");
    let replayed = forged_with_cookie(&state, &state).await.unwrap();
    assert_eq!(replayed.status(), StatusCode::BAD_REQUEST, "a state works once, even with its cookie");
    assert_eq!(sign_in_tables(&app).await, before, "a replayed state changes nothing");
    app
}

async fn an_id_token_with_another_nonce_is_refused(app: TestApp) -> TestApp {
    // Someone replays an authorization made for another sign-in: its ID token's nonce is not
    // the one this sign-in stored.
    let browser = browser();
    let back = sign_in_at_sandbox(&app, &browser, "nonce@example.com", "No Nce", true, |params| {
        for (key, value) in params.iter_mut() {
            if key == "nonce" {
                *value = "a-nonce-from-another-sign-in".into();
            }
        }
    })
    .await;
    let before = sign_in_tables(&app).await;
    let (status, _, body) = callback(&browser, &back).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body:?}");
    assert_eq!(body["error"]["message"], "Sandbox ID could not confirm who signed in. Please try again.");
    assert_eq!(sign_in_tables(&app).await, before, "a wrong nonce changes nothing");
    app
}

async fn a_verified_identity_links_only_to_a_verified_account(app: TestApp) -> TestApp {
    // An account whose owner never confirmed the address: whoever holds the provider account
    // must not get in through it.
    let signup = app.post("/api/auth/signup", None, common::signup_body("unconfirmed@example.com", "customer")).await;
    assert_eq!(signup.status, StatusCode::CREATED);
    let before = sign_in_tables(&app).await;
    let Arrival::Refused(message) = arrive(&app, "unconfirmed@example.com", "Un Confirmed", true).await else {
        panic!("linking to an unverified account is refused");
    };
    assert!(message.contains("An account with unconfirmed@example.com already exists"), "{message}");
    assert_eq!(sign_in_tables(&app).await, before, "a refused link changes nothing");

    // A confirmed account, but the provider does not vouch for the address.
    let confirmed = app.signed_in_user("confirmed@example.com").await;
    let before = sign_in_tables(&app).await;
    let Arrival::Refused(_) = arrive(&app, "confirmed@example.com", "Con Firmed", false).await else {
        panic!("an address the provider did not verify links nothing");
    };
    assert_eq!(sign_in_tables(&app).await, before, "a refused link changes nothing");

    // Both sides verified: linked, and signed in to the same account.
    let Arrival::Session { refresh_token, .. } = arrive(&app, "confirmed@example.com", "Con Firmed", true).await else {
        panic!("a verified identity links to a verified account");
    };
    let session = session_from(&app, &refresh_token).await;
    assert_eq!(session["user"]["id"], confirmed["user"]["id"]);
    let access = common::access_token(&session);
    let identities = app.get("/api/me/identities", Some(&access)).await;
    assert_eq!(identities.body["has_password"], true);
    assert_eq!(identities.body["items"].as_array().unwrap().len(), 1);
    app
}

async fn the_last_way_to_sign_in_cannot_be_unlinked(app: TestApp) -> TestApp {
    let Arrival::SignUp { token, .. } = arrive(&app, "only.sandbox@example.com", "Only Sandbox", true).await else {
        panic!("a new person");
    };
    let created =
        app.post("/api/auth/oidc/complete-signup", None, json!({ "token": token, "account_type": "customer" })).await;
    assert_eq!(created.status, StatusCode::CREATED, "{:?}", created.body);
    let access = common::access_token(&created.body);
    let before = sign_in_tables(&app).await;
    let last = app.request(reqwest::Method::DELETE, "/api/me/identities/sandbox", Some(&access), None).await;
    assert_eq!(last.status, StatusCode::CONFLICT, "{:?}", last.body);
    assert!(last.body["error"]["message"].as_str().unwrap().contains("only way you sign in"));
    assert_eq!(sign_in_tables(&app).await, before, "a refused unlink changes nothing");
    let unlinked = app.request(reqwest::Method::DELETE, "/api/me/identities/google", Some(&access), None).await;
    assert_eq!(unlinked.status, StatusCode::NOT_FOUND);
    let anonymous = app.request(reqwest::Method::DELETE, "/api/me/identities/sandbox", None, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);

    // An account with a password may drop its provider.
    let member = app.signed_in_user("member@example.com").await;
    let Arrival::Session { .. } = arrive(&app, "member@example.com", "Mem Ber", true).await else {
        panic!("linked");
    };
    let access = common::access_token(&member);
    let removed = app.request(reqwest::Method::DELETE, "/api/me/identities/sandbox", Some(&access), None).await;
    assert_eq!(removed.status, StatusCode::NO_CONTENT, "{:?}", removed.body);
    let identities = app.get("/api/me/identities", Some(&access)).await;
    assert_eq!(identities.body["items"], json!([]));
    let again = app.request(reqwest::Method::DELETE, "/api/me/identities/sandbox", Some(&access), None).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    app
}
