//! An address a provider did not verify never makes or opens an account by itself (issue 46): a
//! person coming back from a provider with an unverified address gets a confirmation mail, and
//! the account exists only once that mail's link is opened in the browser that signed up (it
//! needs both the mailed token and the sign-up token that browser holds), so someone who signs
//! in with another person's address cannot take the account that person makes later. Identities
//! linked before this, while the address was unverified, sign nobody in, and a password reset
//! removes them.

use reqwest::StatusCode;
use serde_json::json;
use store::{db::Db, users};

use crate::common;

use common::{
    TestApp,
    rows::snapshot_table,
    sign_in::{Arrival, browser, callback, sign_in_at_sandbox, sign_in_tables},
};

on_both_backends!(
    an_unverified_address_makes_no_account_until_its_mail_is_confirmed_in_the_same_browser,
    a_reset_removes_identities_linked_while_the_address_was_unverified,
);

/// The sandbox provider, vouching (or not) for `email`: where its callback leaves the browser.
async fn arrive(app: &TestApp, email: &str, email_verified: bool) -> Arrival {
    let browser = browser();
    let back = sign_in_at_sandbox(app, &browser, email, "Una Verified", email_verified, |_| {}).await;
    let (status, arrival, body) = callback(&browser, &back).await;
    assert_eq!(status, StatusCode::FOUND, "{body:?}");
    arrival.unwrap()
}

async fn an_unverified_address_makes_no_account_until_its_mail_is_confirmed_in_the_same_browser(
    app: TestApp,
) -> TestApp {
    const EMAIL: &str = "victim@example.com";
    let Arrival::SignUp { token, .. } = arrive(&app, EMAIL, false).await else {
        panic!("a new person chooses their account type first");
    };
    let chosen = app
        .post(
            "/api/auth/oidc/complete-signup",
            None,
            json!({ "token": token, "account_type": "tasker", "skills": [{ "name": "Gardening", "level": 70 }] }),
        )
        .await;
    assert_eq!(chosen.status, StatusCode::ACCEPTED, "no account yet: {:?}", chosen.body);
    assert_eq!(chosen.body["confirmation_sent"], true);
    assert_eq!(chosen.body["email"], EMAIL);
    assert!(chosen.body.get("access_token").is_none() && chosen.body.get("refresh_token").is_none());
    assert!(users::user_by_email(&app.server.state.db, EMAIL).await.unwrap().is_none(), "no account yet");
    assert!(snapshot_table(&app, "user_identities").await.is_empty(), "no identity linked");

    // The mail goes to the address; its link alone (opened elsewhere, as by the address's owner
    // who never asked for it) makes nothing.
    let mailed = app.token_mailed_to(EMAIL, "Confirm your email").await;
    let before = sign_in_tables(&app).await;
    for (signup_token, why) in [("", "another browser"), ("forged", "a forged sign-up token")] {
        let refused = app
            .post("/api/auth/oidc/confirm-signup", None, json!({ "token": mailed, "signup_token": signup_token }))
            .await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{why}: {:?}", refused.body);
    }
    let guessed =
        app.post("/api/auth/oidc/confirm-signup", None, json!({ "token": "guess", "signup_token": token })).await;
    assert_eq!(guessed.status, StatusCode::BAD_REQUEST, "without the mailed token: {:?}", guessed.body);
    assert_eq!(sign_in_tables(&app).await, before, "refused confirmations change nothing");

    let confirmed =
        app.post("/api/auth/oidc/confirm-signup", None, json!({ "token": mailed, "signup_token": token })).await;
    assert_eq!(confirmed.status, StatusCode::CREATED, "{:?}", confirmed.body);
    assert_eq!(confirmed.body["user"]["email"], EMAIL);
    assert_eq!(confirmed.body["user"]["email_verified"], true, "our own mail confirmed it");
    assert_eq!(confirmed.body["profile"]["is_tasker"], true, "the choice made before the mail");
    let again =
        app.post("/api/auth/oidc/confirm-signup", None, json!({ "token": mailed, "signup_token": token })).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "the link works once");

    // From now on the identity signs in as any other.
    let Arrival::Session { .. } = arrive(&app, EMAIL, false).await else { panic!("a confirmed identity signs in") };
    app
}

async fn a_reset_removes_identities_linked_while_the_address_was_unverified(app: TestApp) -> TestApp {
    const EMAIL: &str = "legacy@example.com";
    let Arrival::SignUp { token, .. } = arrive(&app, EMAIL, true).await else { panic!("a new person") };
    common::sign_in::complete_signup(&app, &token).await;
    // An identity linked before addresses had to be confirmed, while this one was unverified.
    mark_linked_unverified(&app, EMAIL).await;

    let Arrival::Refused(message) = arrive(&app, EMAIL, true).await else {
        panic!("an identity linked while its address was unverified signs nobody in");
    };
    assert!(message.contains("reset your password"), "{message}");

    let asked = app.post("/api/auth/recover", None, json!({ "email": EMAIL })).await;
    assert!(asked.status.is_success(), "{:?}", asked.body);
    let reset_token = app.token_mailed_to(EMAIL, "Reset").await;
    let reset =
        app.post("/api/auth/reset", None, json!({ "token": reset_token, "password": "a new long secret" })).await;
    assert!(reset.status.is_success(), "{:?}", reset.body);
    assert!(snapshot_table(&app, "user_identities").await.is_empty(), "the reset removed the identity");
    // No longer linked: the provider's identity is a stranger to the account again, and an
    // address it does not vouch for links to nothing.
    let Arrival::Refused(message) = arrive(&app, EMAIL, false).await else {
        panic!("the removed identity signs nobody in");
    };
    assert!(message.contains(&format!("An account with {EMAIL} already exists")), "{message}");
    app
}

/// What the migration that introduced `address_confirmed` left on such an identity.
async fn mark_linked_unverified(app: &TestApp, email: &str) {
    let user = users::user_by_email(&app.server.state.db, email).await.unwrap().unwrap();
    let sql = "update user_identities set address_confirmed = false where user_id = $1";
    let marked = match &app.server.state.db {
        Db::Sqlite(pool) => sqlx::query(sql).bind(user.id).execute(pool).await.unwrap().rows_affected(),
        Db::Postgres(pool) => sqlx::query(sql).bind(user.id).execute(pool).await.unwrap().rows_affected(),
    };
    assert_eq!(marked, 1);
}
