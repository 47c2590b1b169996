//! "Continue with Google" against a fake Google held to Google's published OpenID Connect
//! reference (`common::google_fake`), configured through `GOOGLE_ISSUER_URL`: the whole sign-up
//! and the sign-in that follows, and the refusals (a forged `state`, an intercepted code replayed,
//! an ID token with another sign-in's nonce, signed with a key Google never published or with
//! the client secret, linking to an address one side has not verified) leaving the accounts,
//! identities and sessions as they were.

use domain::{
    config::{Config, Secret},
    signin::settings::ClientCredentials,
};

use crate::common;

use common::{
    Backend, TestApp,
    google_fake::{self, FakeGoogle},
    identity_fake::{Forgery, Person},
    sign_in::{
        self, Arrival, Back, assert_forged_state_refused, assert_not_confirmed, at_provider, complete_signup,
        return_to_app, session_from, sign_in_tables, sign_in_through, start,
    },
};
use reqwest::StatusCode;

on_both_backends!(given_backend;
    google_signs_up_a_new_person_then_signs_them_in_again,
    google_forged_state_and_replayed_code_are_refused,
    google_id_tokens_that_do_not_check_out_are_refused,
    google_links_only_an_address_both_sides_verified,
);

fn configure(config: &mut Config, google: &FakeGoogle) {
    config.sign_in.google = Some(ClientCredentials {
        client_id: google_fake::CLIENT_ID.into(),
        client_secret: Secret::new(google_fake::CLIENT_SECRET),
    });
    config.sign_in.endpoints.google_issuer = google.issuer();
}

fn register(app: &TestApp, google: &FakeGoogle) {
    google.register_redirect(app.url("/api/auth/oidc/google/callback"));
}

fn gia() -> Person {
    Person::new("108000000000000000001", "gia@example.com", "Gia", "Nguyen")
}

async fn google_signs_up_a_new_person_then_signs_them_in_again(backend: Backend) {
    let google = FakeGoogle::start().await;
    common::run(
        backend,
        |config| configure(config, &google),
        |app| async {
            register(&app, &google);
            let providers = app.get("/api/auth/providers", None).await;
            assert_eq!(providers.body[0]["id"], "google", "{:?}", providers.body);

            google.sign_in_next(gia());
            let browser = sign_in::browser();
            let authorize = start(&app, &browser, "google").await;
            assert_eq!(authorize.origin().ascii_serialization(), google.issuer(), "discovered from GOOGLE_ISSUER_URL");
            assert_eq!(authorize.path(), "/o/oauth2/v2/auth");
            let back = at_provider(&browser, &authorize).await;
            let (status, arrival, body) = return_to_app(&browser, &back).await;
            assert_eq!(status, StatusCode::FOUND, "{body:?}");
            let Some(Arrival::SignUp { token, query }) = arrival else {
                panic!("a new person chooses first: {arrival:?}")
            };
            for (key, value) in
                [("provider", "google"), ("email", "gia@example.com"), ("first_name", "Gia"), ("last_name", "Nguyen")]
            {
                assert!(query.contains(&(key.into(), value.into())), "{key} in {query:?}");
            }
            let [redeemed] =
                google.provider.token_requests.lock().unwrap().clone().try_into().expect("one code redeemed");
            assert_eq!(redeemed["client_secret"], google_fake::CLIENT_SECRET, "client_secret_post");
            assert_eq!(redeemed["code_verifier"].len(), 43, "the PKCE verifier went with the code");

            let created = complete_signup(&app, &token).await;
            assert_eq!(created["user"]["email"], "gia@example.com");
            assert_eq!(created["user"]["email_verified"], true, "Google verified the address");
            let access = common::access_token(&created);
            let identities = app.get("/api/me/identities", Some(&access)).await;
            assert_eq!(identities.body["items"][0]["provider"], "google", "{:?}", identities.body);

            google.sign_in_next(gia());
            let Arrival::Session { refresh_token, redirect } = sign_in_through(&app, "google").await else {
                panic!("the linked Google account signs in");
            };
            assert_eq!(redirect, "/my-tasks");
            let session = session_from(&app, &refresh_token).await;
            assert_eq!(session["user"]["id"], created["user"]["id"], "the same account");
            app
        },
    )
    .await;
}

async fn google_forged_state_and_replayed_code_are_refused(backend: Backend) {
    let google = FakeGoogle::start().await;
    common::run(
        backend,
        |config| configure(config, &google),
        |app| async {
            register(&app, &google);
            google.sign_in_next(gia());
            let browser = sign_in::browser();
            let back = at_provider(&browser, &start(&app, &browser, "google").await).await;
            assert_forged_state_refused(&app, &browser, &back).await;
            let (status, arrival, _) = return_to_app(&browser, &back).await;
            assert_eq!(status, StatusCode::FOUND, "the genuine sign-in still goes through");
            assert!(matches!(arrival, Some(Arrival::SignUp { .. })), "{arrival:?}");

            // Someone who intercepted the code uses it in a sign-in of their own: Google has
            // spent it, and the PKCE verifier of their sign-in is not this code's anyway.
            let attacker = sign_in::browser();
            let theirs = start(&app, &attacker, "google").await;
            let state = theirs.query_pairs().find(|(key, _)| key == "state").unwrap().1.into_owned();
            let replayed = back.with_field("state", &state);
            assert_not_confirmed(&app, &attacker, &replayed, "Google").await;
            app
        },
    )
    .await;
}

/// Starts a sign-in whose authorization request `tamper` may edit, and returns the browser and
/// the way back.
async fn tampered_sign_in(app: &TestApp, tamper: impl FnOnce(&mut url::Url)) -> (reqwest::Client, Back) {
    let browser = sign_in::browser();
    let mut authorize = start(app, &browser, "google").await;
    tamper(&mut authorize);
    let back = at_provider(&browser, &authorize).await;
    (browser, back)
}

fn set_query(url: &mut url::Url, name: &str, value: &str) {
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .into_owned()
        .map(|(key, old)| if key == name { (key, value.to_owned()) } else { (key, old) })
        .collect();
    url.query_pairs_mut().clear().extend_pairs(pairs);
}

async fn google_id_tokens_that_do_not_check_out_are_refused(backend: Backend) {
    let google = FakeGoogle::start().await;
    common::run(
        backend,
        |config| configure(config, &google),
        |app| async {
            register(&app, &google);
            // An authorization made for another sign-in: its ID token carries that sign-in's nonce.
            google.sign_in_next(gia());
            let (browser, back) =
                tampered_sign_in(&app, |url| set_query(url, "nonce", "a-nonce-from-another-sign-in")).await;
            assert_not_confirmed(&app, &browser, &back, "Google").await;

            for forgery in [Forgery::UnpublishedKey, Forgery::SymmetricWithClientSecret] {
                google.provider.forge_next_id_token(forgery);
                let (browser, back) = tampered_sign_in(&app, |_| {}).await;
                assert_not_confirmed(&app, &browser, &back, "Google").await;
            }

            // The same sign-in, honestly signed, goes through: the refusals were the forgeries.
            let (browser, back) = tampered_sign_in(&app, |_| {}).await;
            let (status, arrival, _) = return_to_app(&browser, &back).await;
            assert_eq!(status, StatusCode::FOUND);
            assert!(matches!(arrival, Some(Arrival::SignUp { .. })), "{arrival:?}");
            app
        },
    )
    .await;
}

async fn google_links_only_an_address_both_sides_verified(backend: Backend) {
    let google = FakeGoogle::start().await;
    common::run(
        backend,
        |config| configure(config, &google),
        |app| async {
            register(&app, &google);
            // An account whose owner never confirmed the address with us.
            let signup =
                app.post("/api/auth/signup", None, common::signup_body("unconfirmed@example.com", "customer")).await;
            assert_eq!(signup.status, StatusCode::CREATED);
            let before = sign_in_tables(&app).await;
            google.sign_in_next(Person::new("108000000000000000002", "unconfirmed@example.com", "Un", "Confirmed"));
            let Arrival::Refused(message) = sign_in_through(&app, "google").await else {
                panic!("linking to an unconfirmed account is refused");
            };
            assert!(message.contains("An account with unconfirmed@example.com already exists"), "{message}");
            assert_eq!(sign_in_tables(&app).await, before, "a refused link changes nothing");

            // A confirmed account, but Google does not vouch for the address.
            let confirmed = app.signed_in_user("confirmed@example.com").await;
            let before = sign_in_tables(&app).await;
            let claimant = Person::new("108000000000000000003", "confirmed@example.com", "Con", "Firmed");
            google.sign_in_next(claimant.clone().email_unverified());
            let Arrival::Refused(_) = sign_in_through(&app, "google").await else {
                panic!("an address Google did not verify links nothing");
            };
            assert_eq!(sign_in_tables(&app).await, before, "a refused link changes nothing");

            google.sign_in_next(claimant);
            let Arrival::Session { refresh_token, .. } = sign_in_through(&app, "google").await else {
                panic!("both sides verified: linked");
            };
            let session = session_from(&app, &refresh_token).await;
            assert_eq!(session["user"]["id"], confirmed["user"]["id"]);
            let identities = app.get("/api/me/identities", Some(&common::access_token(&session))).await;
            assert_eq!(identities.body["items"][0]["provider"], "google");
            assert_eq!(identities.body["has_password"], true);
            app
        },
    )
    .await;
}
