//! "Continue with Apple" against a fake Sign in with Apple held to Apple's REST API documentation
//! (`common::apple_fake`), configured through `APPLE_ISSUER_URL`: the callback arrives as a form
//! POST (`response_mode=form_post`), the person's name only in the `user` JSON of their first
//! authorization, `email_verified` as the string "true", and every token request authenticates
//! with a client secret the fake verifies as Apple does (ES256 with the team's key). Refusals (a
//! forged `state`, another sign-in's nonce, an ID token signed with a key Apple never published,
//! linking to an unconfirmed account) leave the accounts, identities and sessions as they were.

use domain::{
    config::{Config, Secret},
    signin::settings::AppleCredentials,
};

use crate::common;

use common::{
    Backend, TestApp,
    apple_fake::{self, FakeApple},
    identity_fake::{Forgery, Person},
    sign_in::{
        self, Arrival, Back, assert_forged_state_refused, assert_not_confirmed, at_provider, complete_signup,
        return_to_app, session_from, sign_in_tables, sign_in_through, start,
    },
};
use reqwest::StatusCode;

on_both_backends!(given_backend;
    apple_signs_up_a_new_person_by_form_post_then_signs_them_in_again,
    apple_forged_state_is_refused,
    apple_id_tokens_that_do_not_check_out_are_refused,
    apple_does_not_link_to_an_unconfirmed_account,
);

fn configure(config: &mut Config, apple: &FakeApple, team_key_pem: &str) {
    config.sign_in.apple = Some(AppleCredentials {
        client_id: apple_fake::CLIENT_ID.into(),
        team_id: apple_fake::TEAM_ID.into(),
        key_id: apple_fake::KEY_ID.into(),
        private_key: Secret::new(team_key_pem),
    });
    config.sign_in.endpoints.apple_issuer = apple.issuer();
}

fn register(app: &TestApp, apple: &FakeApple) {
    apple.register_redirect(app.url("/api/auth/oidc/apple/callback"));
}

fn ada() -> Person {
    Person::new("001234.5e201aec537347aeb79d23cbc345170a.1321", "ada@example.com", "Ada", "Lovelace")
}

async fn apple_signs_up_a_new_person_by_form_post_then_signs_them_in_again(backend: Backend) {
    let (apple, team_key) = FakeApple::start().await;
    common::run(
        backend,
        |config| configure(config, &apple, &team_key),
        |app| async {
            register(&app, &apple);
            apple.sign_in_next(ada());
            let browser = sign_in::browser();
            let authorize = start(&app, &browser, "apple").await;
            assert_eq!(authorize.origin().ascii_serialization(), apple.issuer(), "discovered from APPLE_ISSUER_URL");
            let back = at_provider(&browser, &authorize).await;
            let Back::FormPost { action, .. } = &back else { panic!("Apple answers with a form POST: {back:?}") };
            assert_eq!(*action, app.url("/api/auth/oidc/apple/callback"));
            let user = back.field("user").expect("the name comes beside the code, the first time only");
            assert!(user.contains("\"firstName\":\"Ada\""), "{user}");

            let (status, arrival, body) = return_to_app(&browser, &back).await;
            assert_eq!(status, StatusCode::FOUND, "{body:?}");
            let Some(Arrival::SignUp { token, query }) = arrival else {
                panic!("a new person chooses first: {arrival:?}")
            };
            for (key, value) in
                [("provider", "apple"), ("email", "ada@example.com"), ("first_name", "Ada"), ("last_name", "Lovelace")]
            {
                assert!(query.contains(&(key.into(), value.into())), "{key} in {query:?}");
            }
            let [redeemed] =
                apple.provider.token_requests.lock().unwrap().clone().try_into().expect("one code redeemed");
            assert_eq!(redeemed["client_secret"].split('.').count(), 3, "the client secret is a JWT");

            let created = complete_signup(&app, &token).await;
            assert_eq!(created["user"]["email_verified"], true, "Apple's \"true\" is a verified address");
            assert_eq!(created["profile"]["first_name"], "Ada");
            assert_eq!(created["profile"]["last_name"], "Lovelace");

            // The second time Apple sends no name: the account is found by its Apple subject.
            let browser = sign_in::browser();
            let back = at_provider(&browser, &start(&app, &browser, "apple").await).await;
            assert_eq!(back.field("user"), None, "Apple sends the name only once");
            let (status, arrival, _) = return_to_app(&browser, &back).await;
            assert_eq!(status, StatusCode::FOUND);
            let Some(Arrival::Session { refresh_token, .. }) = arrival else { panic!("signed in: {arrival:?}") };
            let session = session_from(&app, &refresh_token).await;
            assert_eq!(session["user"]["id"], created["user"]["id"], "the same account");
            assert_eq!(session["profile"]["first_name"], "Ada", "the name from the first time is kept");
            app
        },
    )
    .await;
}

async fn apple_forged_state_is_refused(backend: Backend) {
    let (apple, team_key) = FakeApple::start().await;
    common::run(
        backend,
        |config| configure(config, &apple, &team_key),
        |app| async {
            register(&app, &apple);
            apple.sign_in_next(ada());
            let browser = sign_in::browser();
            let back = at_provider(&browser, &start(&app, &browser, "apple").await).await;
            assert_forged_state_refused(&app, &browser, &back).await;
            // No state at all in the POST.
            let Back::FormPost { action, fields } = &back else { panic!("a form POST") };
            let without_state: Vec<_> = fields.iter().filter(|(key, _)| key != "state").cloned().collect();
            let before = sign_in_tables(&app).await;
            let (status, _, _) =
                return_to_app(&browser, &Back::FormPost { action: action.clone(), fields: without_state }).await;
            assert_eq!(status, StatusCode::BAD_REQUEST);
            assert_eq!(sign_in_tables(&app).await, before);

            let (status, arrival, _) = return_to_app(&browser, &back).await;
            assert_eq!(status, StatusCode::FOUND, "the genuine sign-in still goes through");
            assert!(matches!(arrival, Some(Arrival::SignUp { .. })), "{arrival:?}");
            app
        },
    )
    .await;
}

async fn apple_id_tokens_that_do_not_check_out_are_refused(backend: Backend) {
    let (apple, team_key) = FakeApple::start().await;
    common::run(
        backend,
        |config| configure(config, &apple, &team_key),
        |app| async {
            register(&app, &apple);
            apple.sign_in_next(ada());
            let browser = sign_in::browser();
            let mut authorize = start(&app, &browser, "apple").await;
            let pairs: Vec<(String, String)> = authorize
                .query_pairs()
                .into_owned()
                .map(|(key, value)| if key == "nonce" { (key, "another-sign-in's-nonce".into()) } else { (key, value) })
                .collect();
            authorize.query_pairs_mut().clear().extend_pairs(pairs);
            let back = at_provider(&browser, &authorize).await;
            assert_not_confirmed(&app, &browser, &back, "Apple").await;

            apple.provider.forge_next_id_token(Forgery::UnpublishedKey);
            let browser = sign_in::browser();
            let back = at_provider(&browser, &start(&app, &browser, "apple").await).await;
            assert_not_confirmed(&app, &browser, &back, "Apple").await;
            app
        },
    )
    .await;
}

async fn apple_does_not_link_to_an_unconfirmed_account(backend: Backend) {
    let (apple, team_key) = FakeApple::start().await;
    common::run(
        backend,
        |config| configure(config, &apple, &team_key),
        |app| async {
            register(&app, &apple);
            let signup = app.post("/api/auth/signup", None, common::signup_body("ada@example.com", "customer")).await;
            assert_eq!(signup.status, StatusCode::CREATED);
            let before = sign_in_tables(&app).await;
            apple.sign_in_next(ada());
            let Arrival::Refused(message) = sign_in_through(&app, "apple").await else {
                panic!("linking to an unconfirmed account is refused");
            };
            assert!(message.contains("An account with ada@example.com already exists"), "{message}");
            assert_eq!(sign_in_tables(&app).await, before, "a refused link changes nothing");
            app
        },
    )
    .await;
}
